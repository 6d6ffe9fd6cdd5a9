// The generated bad-input run of the node suite (every operation of the OpenAPI
// document; no 5xx, a problem document for every error) at bench scale. It starts its own
// process through the test, so the bench's shared service is not used.
import { spawnSync } from "node:child_process";
import { ROOT } from "../../scripts/lib/local.mjs";

export const name = "fuzz";

const RUNS = Number(process.env.FUZZ_RUNS ?? 3000);

export async function run() {
  const started = Date.now();
  const result = spawnSync(
    "npx",
    ["vitest", "run", "--project", "node", "test/node/reliability/probes.test.ts"],
    {
      cwd: ROOT,
      env: { ...process.env, FUZZ_RUNS: String(RUNS), NO_COLOR: "1", FORCE_COLOR: "0" },
      encoding: "utf8",
    },
  );
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  const output = `${result.stdout}\n${result.stderr}`;
  const tests = output.match(/Tests\s+(.*)\n/)?.[1] ?? "?";
  const verdict = result.status === 0 ? "no 5xx, every error a problem document" : "FAILED";
  if (result.status !== 0) process.stderr.write(output);
  return [
    "### fuzz",
    "",
    `${RUNS} generated bad requests over every operation of the OpenAPI document (JSON nested`,
    `up to 5,000 levels among them, and on the admin API) plus the lost-write check`,
    `(\`FUZZ_RUNS=${RUNS}\`): ${verdict}; tests ${tests}; ${seconds} s.`,
  ].join("\n");
}
