import { createMiddleware } from "hono/factory";
import { createLogger } from "../lib/log";
import { REQUEST_ID_HEADER, requestIdFor } from "../lib/request-id";
import type { HonoEnv } from "./hono-env";

/**
 * Gives every request an id: the client's own `X-Request-Id` when it is safe to keep
 * (`REQUEST_ID_PATTERN`), otherwise a fresh one. A refused id is replaced, never answered with
 * 400: the header serves tracing, and a proxy that stamps ids of its own must not break calls.
 * The id goes back in `X-Request-Id` on every response (errors included: `onError` sets it
 * too) and onto every log line of the request.
 */
export const requestId = createMiddleware<HonoEnv>(async (c, next) => {
  const id = requestIdFor(c.req.header(REQUEST_ID_HEADER));
  c.set("requestId", id);
  c.set("log", createLogger({ request_id: id }));
  await next();
  withRequestId(c.res, id, (res) => {
    c.res = res;
  });
});

/**
 * Sets the id on a response. A response whose headers cannot change (one passed through from
 * `fetch`) is copied first.
 */
function withRequestId(res: Response, id: string, replace: (res: Response) => void): void {
  try {
    res.headers.set(REQUEST_ID_HEADER, id);
  } catch {
    const copy = new Response(res.body, res);
    copy.headers.set(REQUEST_ID_HEADER, id);
    replace(copy);
  }
}
