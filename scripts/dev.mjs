// npm run dev: migrations, then the Worker with local D1, R2, Durable Objects and Queues.
// Honours PORT (8787), STATE_DIR (.wrangler/state) and ADMIN_TOKEN (default: .dev.vars).
import { applyMigrations, localConfig, startWrangler, supervise } from "./lib/local.mjs";

const config = localConfig();
applyMigrations(config.stateDir);
supervise(startWrangler(config));
