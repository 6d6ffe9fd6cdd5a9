// npm run dev: migrations, then the Worker with local D1, R2, Durable Objects and Queues.
// Honours PORT (8787), STATE_DIR (.wrangler/state), ADMIN_TOKEN (default: .dev.vars),
// SWEEP_INTERVAL_SECONDS (60) and WORK_LEASE_SECONDS (900) for the crash sweep.
import { launchLocal } from "./lib/local.mjs";

await launchLocal();
