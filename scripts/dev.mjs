// npm run dev: migrations, then the Worker with local D1, R2, Durable Objects and Queues.
// Honours PORT (8787), STATE_DIR (.wrangler/state), ADMIN_TOKEN (default: .dev.vars),
// SWEEP_INTERVAL_SECONDS (60) and WORK_LEASE_SECONDS (900) for the crash sweep.
import {
  applyMigrations,
  ensurePortFree,
  localConfig,
  refuse,
  startSweeps,
  startWrangler,
  supervise,
} from "./lib/local.mjs";

let config;
try {
  config = localConfig();
} catch (error) {
  refuse(error.message);
}
await ensurePortFree(config);
applyMigrations(config.stateDir);
const child = startWrangler(config);
supervise(child);
startSweeps(config, child);
