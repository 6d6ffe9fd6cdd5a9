// npm run deploy:check: what `npm run deploy` would ship, checked offline (npm test runs
// it): the dry-run bundle and its size, the bundled workerd starting it with production's
// date and flags without --experimental, a URL, its own name, Workers Logs, each consumer's
// max_concurrency, the secrets and the bucket's CORS rule. One line per check; a failure
// names what is wrong, exit 1.
// `--deploying` checks a configuration about to ship as it is (CI before `wrangler deploy`):
// then the template's placeholders fail, one line each. Without it they are allowed, so the
// committed template stays checkable; `npm run deploy` writes them before it ships.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { checkConsumerConcurrency } from "./lib/consumer-concurrency.mjs";
import {
  checkBundleSize,
  checkCors,
  checkDistinctName,
  checkNoLocalOnlyParts,
  checkObservability,
  checkReachable,
  checkSecrets,
  checkStartsWithoutExperimental,
  checkVectorIndex,
} from "./lib/deploy-checks.mjs";
import { DEPLOYED_SECRETS } from "./lib/deploy-secrets.mjs";
import { VECTOR_INDEX } from "./lib/deploy-steps.mjs";
import { ROOT } from "./lib/local.mjs";
import {
  checkDeployedValues,
  placeholdersIn,
  reachOf,
  resolvedConfig,
} from "./lib/production-config.mjs";
import { corsFile } from "./lib/r2-rules.mjs";
import { saidLine } from "./lib/wrangler-cli.mjs";

// `--config` checks another copy of the configuration (with its deploy/ folder); the tests
// use it to see a failing dry run.
const { values } = parseArgs({
  options: {
    config: { type: "string", default: path.join(ROOT, "wrangler.toml") },
    deploying: { type: "boolean", default: false },
  },
});
const configPath = path.resolve(values.config);
const outdir = mkdtempSync(path.join(tmpdir(), "vas-dry-run-"));

/** `wrangler deploy --dry-run --env production`, bundled into `outdir`. */
function dryRun() {
  return new Promise((resolve) => {
    const child = spawn(
      path.join(ROOT, "node_modules/.bin/wrangler"),
      ["deploy", "--dry-run", "--env", "production", "--outdir", outdir, "--config", configPath],
      {
        cwd: path.dirname(configPath),
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" },
      },
    );
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.once("close", (code) => resolve({ code, output }));
  });
}

const results = [];
const record = (name, problem, ok) => results.push({ name, problem, ok });
try {
  const [bundle, production, local] = await Promise.all([
    dryRun(),
    resolvedConfig(configPath, "production"),
    resolvedConfig(configPath),
  ]);
  if (bundle.code !== 0) {
    record(
      "bundle",
      `wrangler deploy --dry-run --env production failed: ${saidLine(bundle.output)}`,
    );
  } else {
    const size = checkBundleSize(outdir);
    record("bundle", size.problem, `${size.ok} within Workers Paid's limits`);
    record(
      "local-only",
      checkNoLocalOnlyParts(outdir),
      "no screen reader, onnxruntime, sharp or ffmpeg code, no native module",
    );
    record(
      "workerd",
      checkStartsWithoutExperimental(outdir, production),
      `starts with ${production.compatibility_date} [${production.compatibility_flags.join(", ")}] without --experimental`,
    );
  }
  const reach = reachOf(production);
  record("url", checkReachable(production), reach && `${reach.kind} ${reach.host ?? ""}`.trim());
  record("name", checkDistinctName(production, local), `${production.name} (local: ${local.name})`);
  record("logs", checkObservability(production), "Workers Logs on");
  record(
    "concurrency",
    checkConsumerConcurrency(production) ?? checkConsumerConcurrency(local),
    "every queue consumer's max_concurrency derived from the model rate it spends",
  );
  const valueProblems = values.deploying ? checkDeployedValues(production) : [];
  for (const line of valueProblems) record("values", line);
  if (valueProblems.length === 0) {
    const keys = placeholdersIn(production).map((p) => p.key);
    record(
      "values",
      null,
      keys.length === 0
        ? `no template placeholders${values.deploying ? ", account_id set" : ""}`
        : `template placeholders in ${keys.join(", ")}, allowed without --deploying (npm run deploy writes them)`,
    );
  }
  const source = (file) => readFileSync(path.join(ROOT, file), "utf8");
  record(
    "secrets",
    checkSecrets(source("src/env.ts"), DEPLOYED_SECRETS),
    DEPLOYED_SECRETS.join(", "),
  );
  record(
    "vectorize",
    checkVectorIndex(
      source("src/ports/embedder/workers-ai.ts"),
      source("src/ports/vector-index/vectorize.ts"),
      VECTOR_INDEX,
    ),
    `${VECTOR_INDEX.dimensions} dimensions, ${VECTOR_INDEX.metric}, metadata index ${VECTOR_INDEX.metadata.map((m) => m.propertyName).join(", ")}`,
  );
  const cors = JSON.parse(readFileSync(corsFile(configPath), "utf8"));
  record(
    "cors",
    checkCors(cors, production),
    "PUT with content-type from the API's origin, ETag exposed",
  );
} finally {
  rmSync(outdir, { recursive: true, force: true });
}

for (const { name, problem, ok } of results)
  if (problem) process.stderr.write(`deploy:check ${name}: ${problem}\n`);
  else process.stdout.write(`deploy:check ${name}: ${ok}\n`);
process.exit(results.some((r) => r.problem) ? 1 : 0);
