import type { Hono } from "hono";
import type { HonoEnv } from "../../src/middleware/hono-env";

/** The longest stall the route makes. */
const MAX_STALL_MS = 10_000;

/**
 * `POST /__bench/stall?ms=` blocks the isolate's event loop for that long with a synchronous
 * busy-wait, as a CPU-bound request beside the others does: every queue consumer and request
 * of the local Worker waits meanwhile. Mounted only by the bench entry (bench/worker.ts).
 */
export function registerBenchStallRoute(app: Hono<HonoEnv>) {
  app.post("/__bench/stall", (c) => {
    const ms = Math.min(Number(c.req.query("ms") ?? 0), MAX_STALL_MS);
    const started = Date.now();
    while (Date.now() - started < ms) {
      // Spinning on purpose: nothing else in the isolate runs meanwhile.
    }
    return c.json({ stalled_ms: Date.now() - started });
  });
}
