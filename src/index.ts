import type { Hono } from "hono";
import { createApp } from "./app";
import type { Env, HonoEnv } from "./env";
import { createPorts } from "./ports";

export { IdempotencyKey } from "../durable-objects/idempotency-key";
export { UploadSession } from "../durable-objects/upload-session";

let app: Hono<HonoEnv> | undefined;

/** The app is built once per isolate, from the first request's configuration. */
function appFor(env: Env): Hono<HonoEnv> {
  app ??= createApp({ ports: createPorts(env), benchRoutes: env.BENCH_ROUTES === "1" });
  return app;
}

export default {
  fetch: (request, env, ctx) => appFor(env).fetch(request, env, ctx),
} satisfies ExportedHandler<Env>;
