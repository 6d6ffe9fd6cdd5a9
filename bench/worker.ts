import { Hono } from "hono";
import type { Env } from "../src/env";
import production from "../src/index";
import type { HonoEnv } from "../src/middleware/hono-env";
import { createPorts, type Ports } from "../src/ports";
import { registerBenchRoutes, registerBenchUploadRoutes } from "./routes/ceilings";
import { registerBenchScaleRoutes } from "./routes/scale";
import { registerBenchSearchRoutes } from "./routes/search";

export {
  IdempotencyKey,
  LocalVectorIndex,
  ModelRateLimiter,
  RunCoordinator,
  UploadSession,
} from "../src/index";

let app: Hono<HonoEnv> | undefined;

/**
 * The unauthenticated `/__bench` routes, with no middleware so that they measure the bare
 * ceiling.
 */
function benchApp(env: Env): Hono<HonoEnv> {
  if (app) return app;
  let ports: Ports | undefined;
  const built = new Hono<HonoEnv>();
  registerBenchRoutes(built);
  registerBenchUploadRoutes(built);
  registerBenchScaleRoutes(built);
  registerBenchSearchRoutes(built, () => {
    ports ??= createPorts(env);
    return ports;
  });
  app = built;
  return app;
}

/**
 * The bench entry (`npm run bench` only; never deployed): `/__bench/*` goes to the bench
 * routes, every other request to the production Worker unchanged.
 */
export default {
  fetch: (request, env, ctx) =>
    new URL(request.url).pathname.startsWith("/__bench/")
      ? benchApp(env).fetch(request, env, ctx)
      : production.fetch(request, env, ctx),
  queue: production.queue,
} satisfies ExportedHandler<Env>;
