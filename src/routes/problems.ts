import type { Hono } from "hono";
import { notFound } from "../errors/api-error";
import { ERROR_CODES, type ErrorCode } from "../errors/codes";
import { problemType } from "../errors/problem";
import type { HonoEnv } from "../middleware/hono-env";

function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CODES, code);
}

/** GET /problems/{code}: what a problem document's `type` points at. */
export function registerProblemRoutes(app: Hono<HonoEnv>) {
  app.get("/problems/:code", (c) => {
    const code = c.req.param("code");
    if (!isErrorCode(code)) throw notFound("Problem type", code);
    const { status, title } = ERROR_CODES[code];
    return c.json({ type: problemType(code), code, status, title });
  });
}
