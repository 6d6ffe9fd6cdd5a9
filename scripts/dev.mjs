// npm run dev: migrations, then the Worker with local D1, R2, Durable Objects and Queues.
// Honours PORT (8787), STATE_DIR (.wrangler/state), ADMIN_TOKEN (default: .dev.vars),
// SWEEP_INTERVAL_SECONDS (60, DEFAULT_SWEEP_INTERVAL_SECONDS in scripts/lib/local.mjs) and
// WORK_LEASE_SECONDS (60, DEFAULT_LEASE_SECONDS in src/services/sweep/lease.ts) for the crash
// sweep, and the rest of the README's configuration table; test/node/stated-defaults.test.ts
// holds these numbers to the constants.
import { adaptersBanner, healthOf, pagesBanner, understandingBanner } from "./lib/banner.mjs";
import { launchLocal, waitForReady } from "./lib/local.mjs";

const { config, child } = await launchLocal();
// Once it answers, say what runs: the adapters, over simulators which services are simulated,
// what the media engine hears and sees, and where the docs and the playground are.
waitForReady(config.baseUrl, child).then(
  async () => {
    const health = await healthOf(config.baseUrl);
    const lines = [
      ...pagesBanner(config.baseUrl),
      ...adaptersBanner(health, config.secrets),
      ...understandingBanner(health),
    ];
    console.log(`\nVideo Analysis Service on ${config.baseUrl}\n${lines.join("\n")}\n`);
  },
  () => {
    // It never came up; wrangler's own output says why.
  },
);
