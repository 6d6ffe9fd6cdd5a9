import { createMiddleware } from "hono/factory";
import type { HonoEnv } from "./hono-env";

const WITH_BODY = new Set(["POST", "PUT", "PATCH"]);

/**
 * Reads an empty JSON request body as `{}`. Many clients send `Content-Type:
 * application/json` on every call, also on bodiless ones such as
 * `POST /videos/{video_id}/upload/complete`; an empty body then means "no fields", not
 * malformed JSON. Runs before anything reads the body.
 */
export const emptyJsonBody = createMiddleware<HonoEnv>(async (c, next) => {
  const raw = c.req.raw;
  if (
    WITH_BODY.has(raw.method) &&
    /json/i.test(raw.headers.get("content-type") ?? "") &&
    (raw.body === null || raw.headers.get("content-length") === "0")
  ) {
    const headers = new Headers(raw.headers);
    headers.delete("content-length");
    c.req.raw = new Request(raw, { body: "{}", headers });
  }
  await next();
});
