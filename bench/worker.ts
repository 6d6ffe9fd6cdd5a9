import { Hono } from "hono";
import { createApp } from "../src/app";
import type { Env } from "../src/env";
import production from "../src/index";
import type { HonoEnv } from "../src/middleware/hono-env";
import type { WorkspaceLimiter } from "../src/middleware/rate-limit";
import { createPorts, type Ports } from "../src/ports";
import { registerBenchRoutes, registerBenchUploadRoutes } from "./routes/ceilings";
import { registerBenchScaleRoutes } from "./routes/scale";
import { registerBenchSearchRoutes } from "./routes/search";
import { registerBenchStallRoute } from "./routes/stall";

export {
  IdempotencyKey,
  LocalVectorIndex,
  ModelRateLimiter,
  RunCoordinator,
  UploadSession,
  WorkspaceRateLimiter,
} from "../src/index";

let app: Hono<HonoEnv> | undefined;
let unlimited: Hono<HonoEnv> | undefined;

/** Lets everything through without asking an object: the baseline of the rate-limits suite. */
const noLimiter: WorkspaceLimiter = {
  take: async (_env, _workspaceId, _rateClass, limit) => ({
    allowed: true,
    remaining: limit - 1,
    resetSeconds: 60,
  }),
};

/**
 * The production app built with no rate limiter, served under `/__bench/unlimited`: the same
 * routes, middleware and adapters, minus the workspace object's round trip.
 */
function unlimitedApp(env: Env): Hono<HonoEnv> {
  unlimited ??= createApp({ ports: createPorts(env), rateLimiter: noLimiter });
  return unlimited;
}

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
  registerBenchStallRoute(built);
  registerBenchSearchRoutes(built, () => {
    ports ??= createPorts(env);
    return ports;
  });
  app = built;
  return app;
}

const UNLIMITED = "/__bench/unlimited";

/**
 * The bench entry (`npm run bench` only; never deployed): `/__bench/unlimited/*` goes to the
 * production app without its rate limiter, the rest of `/__bench/*` to the bench routes, every
 * other request to the production Worker unchanged.
 */
export default {
  fetch: (request, env, ctx) => {
    const url = new URL(request.url);
    if (url.pathname.startsWith(UNLIMITED)) {
      url.pathname = url.pathname.slice(UNLIMITED.length);
      return unlimitedApp(env).fetch(new Request(url, request), env, ctx);
    }
    return url.pathname.startsWith("/__bench/")
      ? benchApp(env).fetch(request, env, ctx)
      : production.fetch(request, env, ctx);
  },
  queue: production.queue,
} satisfies ExportedHandler<Env>;
