import { createMiddleware } from "hono/factory";
import { type FieldError, invalidRequest } from "../errors/api-error";
import type { HonoEnv } from "./hono-env";

/** A UTF-16 surrogate without its pair: D1 would store it as U+FFFD, changing the text. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATE_MESSAGE = "must be valid Unicode text (it holds an unpaired surrogate)";

/** Query parameters that take several values, written `name[]`. */
const ARRAY_PARAMETERS = new Set(["expand[]"]);

function child(path: string, part: string | number): string {
  if (typeof part === "number") return `${path}[${part}]`;
  return path === "" ? part : `${path}.${part}`;
}

function loneSurrogates(value: unknown, path: string, errors: FieldError[]): void {
  if (typeof value === "string") {
    if (LONE_SURROGATE.test(value)) {
      errors.push({ path: path === "" ? "body" : path, message: LONE_SURROGATE_MESSAGE });
    }
  } else if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) loneSurrogates(item, child(path, index), errors);
  } else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const at = child(path, key);
      if (LONE_SURROGATE.test(key)) errors.push({ path: at, message: LONE_SURROGATE_MESSAGE });
      loneSurrogates(item, at, errors);
    }
  }
}

/**
 * Refuses input that would otherwise be read differently from how it was sent: a scalar
 * parameter written as an array (`limit[]=5`, silently ignored before) and JSON text holding
 * an unpaired surrogate, in any value or key (stored changed before).
 */
export const strictInput = createMiddleware<HonoEnv>(async (c, next) => {
  const errors: FieldError[] = [];
  // The query needs no surrogate check: percent-decoding turns bytes that are not UTF-8
  // into U+FFFD before any code sees them.
  for (const name of new URL(c.req.url).searchParams.keys()) {
    if (name.endsWith("[]") && !ARRAY_PARAMETERS.has(name)) {
      errors.push({ path: name, message: `is not a list parameter; send ${name.slice(0, -2)}` });
    }
  }
  if (errors.length === 0 && /json/i.test(c.req.header("content-type") ?? "")) {
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch {
      // Unparseable JSON is the validator's to report.
      body = undefined;
    }
    loneSurrogates(body, "", errors);
  }
  if (errors.length > 0) throw invalidRequest(errors);
  await next();
});
