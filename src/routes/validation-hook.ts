import { type Hook, z } from "@hono/zod-openapi";
import type { FieldError } from "../errors/api-error";
import { invalidRequest } from "../errors/api-error";
import type { HonoEnv } from "../middleware/hono-env";
import { plainMessage } from "./validation-messages";

// Every zod message the API can show is written in plain words; a schema's own message wins.
z.config({ customError: plainMessage });

/** A key that would not read back from a dotted path is written in brackets: `a[""]`. */
const PLAIN_KEY = /^[A-Za-z_$][\w$-]*(\[\])?$/;

function formatPath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const part of path) {
    if (typeof part === "number") text += `[${part}]`;
    else if (!PLAIN_KEY.test(String(part))) text += `[${JSON.stringify(String(part))}]`;
    else text += text === "" ? String(part) : `.${String(part)}`;
  }
  return text;
}

/** Issues at the value itself say the branch did not fit at all; deeper ones that it nearly did. */
function distance(branch: readonly z.core.$ZodIssue[]): number {
  return branch.reduce((sum, issue) => sum + (issue.path.length === 0 ? 1000 : 1), 0);
}

/**
 * The issues worth naming: a union that failed in every branch is explained by the branch
 * that came closest, at the union's own path.
 */
function flatten(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  const flat: z.core.$ZodIssue[] = [];
  for (const issue of issues) {
    const nearest =
      issue.code === "invalid_union" && issue.errors.length > 0
        ? [...issue.errors].sort((a, b) => distance(a) - distance(b))[0]
        : undefined;
    if (nearest && distance(nearest) < 1000) {
      const nested = nearest.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] }));
      flat.push(...flatten(nested));
    } else flat.push(issue);
  }
  return flat;
}

/** Turns zod issues into field errors named by their dotted path. */
export function fieldErrors(issues: readonly z.core.$ZodIssue[]): FieldError[] {
  const errors: FieldError[] = [];
  for (const issue of flatten(issues)) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        errors.push({ path: formatPath([...issue.path, key]), message: "is not a known field" });
      }
      continue;
    }
    const path = formatPath(issue.path);
    errors.push({ path: path === "" ? "body" : path, message: issue.message });
  }
  return errors;
}

/** The defaultHook of every OpenAPIHono: a failed validation is a 400 naming the fields. */
export const validationHook: Hook<unknown, HonoEnv, string, unknown> = (result) => {
  if (!result.success) throw invalidRequest(fieldErrors(result.error.issues));
};
