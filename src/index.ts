import type { Hono } from "hono";
import { createApp } from "./app";
import type { Env } from "./env";
import type { HonoEnv } from "./middleware/hono-env";
import { createPorts, type Ports } from "./ports";
import { handleQueue } from "./queues";
import { createDeps } from "./services/deps";
import { runSweep } from "./services/sweep";

export { IdempotencyKey } from "./durable-objects/idempotency-key";
export { LocalVectorIndex } from "./durable-objects/local-vector-index";
export { ModelRateLimiter } from "./durable-objects/model-rate-limiter";
export { RunCoordinator } from "./durable-objects/run-coordinator";
export { UploadSession } from "./durable-objects/upload-session";
export { WorkspaceRateLimiter } from "./durable-objects/workspace-rate-limiter";

let ports: Ports | undefined;
let app: Hono<HonoEnv> | undefined;

/** Adapters and app are built once per isolate, from the first event's configuration. */
function portsFor(env: Env): Ports {
  ports ??= createPorts(env);
  return ports;
}

function appFor(env: Env): Hono<HonoEnv> {
  app ??= createApp({ ports: portsFor(env) });
  return app;
}

export default {
  fetch: (request, env, ctx) => appFor(env).fetch(request, env, ctx),
  queue: (batch, env) => handleQueue(batch, env, portsFor(env)),
  scheduled: async (_controller, env) => {
    await runSweep(createDeps(env, portsFor(env)));
  },
} satisfies ExportedHandler<Env>;
