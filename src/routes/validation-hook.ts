import type { Hook } from "@hono/zod-openapi";
import type { z } from "zod";
import type { FieldError } from "../errors/api-error";
import { invalidRequest } from "../errors/api-error";
import type { HonoEnv } from "../middleware/hono-env";

function formatPath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const part of path) {
    if (typeof part === "number") text += `[${part}]`;
    else text += text === "" ? String(part) : `.${String(part)}`;
  }
  return text;
}

/** Turns zod issues into field errors named by their dotted path. */
export function fieldErrors(issues: readonly z.core.$ZodIssue[]): FieldError[] {
  const errors: FieldError[] = [];
  for (const issue of issues) {
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
