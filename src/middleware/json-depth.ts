import { createMiddleware } from "hono/factory";
import { invalidRequest } from "../errors/api-error";
import type { HonoEnv } from "./hono-env";

/**
 * The deepest nesting of arrays and objects a JSON body may have. No request of this API
 * needs more than six levels; checks that walk a parsed body recursively (input checks,
 * validation, the idempotency fingerprint) stay far inside any stack at this depth.
 */
export const MAX_JSON_DEPTH = 64;

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The deepest nesting of arrays and objects in JSON text, read in one pass without parsing,
 * so a body of any depth costs no stack. Brackets inside strings do not count; text that is
 * not JSON gets some number, and the parser reports it as before.
 */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === BACKSLASH) i++;
      else if (char === QUOTE) inString = false;
    } else if (char === QUOTE) inString = true;
    else if (char === OPEN_OBJECT || char === OPEN_ARRAY) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (char === CLOSE_OBJECT || char === CLOSE_ARRAY) depth--;
  }
  return deepest;
}

/**
 * Refuses a JSON body nested deeper than `MAX_JSON_DEPTH` with a 400 naming the limit,
 * before anything parses or walks it.
 */
export const boundJsonDepth = createMiddleware<HonoEnv>(async (c, next) => {
  if (/json/i.test(c.req.header("content-type") ?? "") && c.req.raw.body !== null) {
    if (jsonDepth(await c.req.text()) > MAX_JSON_DEPTH) {
      throw invalidRequest([
        {
          path: "body",
          message: `nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels, the limit`,
        },
      ]);
    }
  }
  await next();
});
