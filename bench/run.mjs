// npm run bench [-- suite ...]: starts the service locally, runs the suites, appends the
// results to docs/benchmarks.md with the command that produced them.
import { appendFileSync, existsSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT } from "../scripts/lib/local.mjs";
import { startService } from "./lib.mjs";
import * as fuzz from "./suites/fuzz.mjs";
import * as listVideos from "./suites/list-videos.mjs";
import * as longRuns from "./suites/long-runs.mjs";
import * as productionSim from "./suites/production-sim.mjs";
import * as scale from "./suites/scale.mjs";
import * as searchLatency from "./suites/search-latency.mjs";
import * as searchLatencyMillion from "./suites/search-latency-1m.mjs";
import * as searchQuality from "./suites/search-quality.mjs";
import * as soak from "./suites/soak.mjs";
import * as truthfulness from "./suites/truthfulness.mjs";
import * as uploads from "./suites/uploads.mjs";
import * as webhooks from "./suites/webhooks.mjs";
import * as workflows from "./suites/workflows.mjs";

const SUITES = [
  listVideos,
  uploads,
  searchQuality,
  searchLatency,
  searchLatencyMillion,
  soak,
  fuzz,
  truthfulness,
  webhooks,
  scale,
  workflows,
  productionSim,
  longRuns,
];
/**
 * Run only when named: seeding a million segments takes several minutes, and a 2-hour video
 * or a long workflow run through the simulated production platform takes longer.
 */
const ON_REQUEST = new Set([searchLatencyMillion, productionSim, longRuns]);
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
if (!existsSync(report)) {
  writeFileSync(
    report,
    "# Benchmarks\n\nAppended by `npm run bench`. The machine is shared and noisy: compare the ratios measured within one run, not absolute figures across runs.\n",
  );
}

// Suites that start their own service (other adapters) do not need the shared one.
const service = suites.every((suite) => suite.ownService) ? null : await startService();
const sections = [];
try {
  for (const suite of suites) {
    console.log(`running ${suite.name} ...`);
    sections.push(await suite.run(service));
  }
} finally {
  await service?.stop();
}
const command = `npm run bench${wanted.length ? ` -- ${wanted.join(" ")}` : ""}`;
const header = `\n## ${new Date().toISOString()}\n\nCommand: \`${command}\` on ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, Node ${process.version}, local \`wrangler dev\`.\n`;
const text = `${header}\n${sections.join("\n\n")}\n`;
appendFileSync(report, text);
console.log(text);
