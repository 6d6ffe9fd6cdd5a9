import { createMiddleware } from "hono/factory";
import type { HonoEnv } from "./hono-env";

/** Gives every request an id, echoed in `X-Request-Id` and in problem documents. */
export const requestId = createMiddleware<HonoEnv>(async (c, next) => {
  const id = crypto.randomUUID();
  c.set("requestId", id);
  await next();
  c.res.headers.set("X-Request-Id", id);
});
