// npm run bench [-- suite ...]: starts the service locally, runs the suites and writes each
// suite's result into its own section of docs/benchmarks.md, replacing the one before.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT } from "../scripts/lib/local.mjs";
import { startService } from "./lib.mjs";
import { replaceSections, suiteSection } from "./report.mjs";
import * as fuzz from "./suites/fuzz.mjs";
import * as install from "./suites/install.mjs";
import * as listVideos from "./suites/list-videos.mjs";
import * as longRuns from "./suites/long-runs.mjs";
import * as productionSim from "./suites/production-sim.mjs";
import * as rateLimits from "./suites/rate-limits.mjs";
import * as scale from "./suites/scale.mjs";
import * as screenText from "./suites/screen-text.mjs";
import * as searchHeldOut from "./suites/search-held-out.mjs";
import * as searchLatency from "./suites/search-latency.mjs";
import * as searchLatencyMillion from "./suites/search-latency-1m.mjs";
import * as searchQuality from "./suites/search-quality.mjs";
import * as soak from "./suites/soak.mjs";
import * as speechSpans from "./suites/speech-spans.mjs";
import * as truthfulness from "./suites/truthfulness.mjs";
import * as uploads from "./suites/uploads.mjs";
import * as webhookConnections from "./suites/webhook-connections.mjs";
import * as webhooks from "./suites/webhooks.mjs";
import * as windowContention from "./suites/window-contention.mjs";
import * as workflows from "./suites/workflows.mjs";

const SUITES = [
  listVideos,
  rateLimits,
  uploads,
  searchQuality,
  searchHeldOut,
  searchLatency,
  searchLatencyMillion,
  soak,
  fuzz,
  truthfulness,
  webhooks,
  webhookConnections,
  scale,
  workflows,
  productionSim,
  longRuns,
  windowContention,
  screenText,
  speechSpans,
  install,
];
/**
 * Run only when named: seeding a million segments takes several minutes, and a 2-hour video,
 * a long workflow run or 100 uploads' windows through the simulated production platform
 * take longer, and two clean installs take minutes.
 */
const ON_REQUEST = new Set([
  searchLatencyMillion,
  productionSim,
  longRuns,
  windowContention,
  install,
]);
const wanted = process.argv.slice(2);
const suites =
  wanted.length === 0
    ? SUITES.filter((suite) => !ON_REQUEST.has(suite))
    : SUITES.filter((suite) => wanted.includes(suite.name));
if (suites.length === 0) {
  console.error(`unknown suite; choose from: ${SUITES.map((s) => s.name).join(", ")}`);
  process.exit(2);
}

const report = path.join(ROOT, "docs", "benchmarks.md");
const PREAMBLE =
  "# Benchmarks\n\nThe latest result of each suite, written by `npm run bench` (one section per suite; a run replaces the sections of the suites it ran). The machine is shared and noisy: compare the ratios measured within one run, not absolute figures across runs.\n";

// Suites that start their own service (other adapters) do not need the shared one.
const service = suites.every((suite) => suite.ownService) ? null : await startService();
const results = [];
try {
  for (const suite of suites) {
    console.log(`running ${suite.name} ...`);
    results.push([suite.name, await suite.run(service)]);
  }
} finally {
  await service?.stop();
}
const run = {
  measuredAt: new Date().toISOString(),
  command: `npm run bench${wanted.length ? ` -- ${wanted.join(" ")}` : ""}`,
  machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, Node ${process.version}, local \`wrangler dev\``,
};
const updates = new Map(results.map(([name, result]) => [name, suiteSection(name, result, run)]));
const before = existsSync(report) ? readFileSync(report, "utf8") : PREAMBLE;
writeFileSync(
  report,
  replaceSections(
    before,
    updates,
    SUITES.map((suite) => suite.name),
  ),
);
console.log([...updates.values()].join("\n"));
