// The windows consumers as the platform runs them (several batches of a queue at once, in two
// isolates, a fifth of all model and media calls failing for a while), with more uploads than
// npm test gives them: test/workers/processing/window-contention.test.ts, run with
// CONTENTION_UPLOADS, reporting what its platform did.
import { spawn } from "node:child_process";
import path from "node:path";
import { ROOT } from "../../scripts/lib/local.mjs";
import { fmt } from "../lib.mjs";

export const name = "window-contention";
/** Needs no service: it runs inside workerd through the vitest integration. */
export const ownService = true;

const UPLOADS = 100;
const TEST = "test/workers/processing/window-contention.test.ts";

/** Runs the test with `uploads`; answers its report line and whether it passed. */
function runTest(uploads) {
  return new Promise((resolve) => {
    const child = spawn(
      path.join(ROOT, "node_modules/.bin/vitest"),
      ["run", "--project", "workers", TEST],
      {
        cwd: ROOT,
        env: { ...process.env, CONTENTION_UPLOADS: String(uploads) },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", () => undefined);
    child.once("close", (code) => {
      const line = output.split("\n").find((l) => l.includes('{"window_contention"'));
      const json = line?.slice(line.indexOf("{"));
      resolve({ passed: code === 0, report: json ? JSON.parse(json).window_contention : null });
    });
  });
}

function row(queue, r) {
  return `| ${queue} | ${r.batches} | ${r.deliveries} | ${r.retries} | ${r.duplicates} | ${r.mostAtOnce} | ${r.mostInOneIsolate} | ${r.deadLettered.length} |`;
}

export async function run() {
  const { passed, report } = await runTest(UPLOADS);
  if (!report)
    return `### Windows under contention\n\nThe test failed before reporting (passed: ${passed}).\n`;
  const { audio, frames, vision, elapsed } = report;
  return [
    `### Windows under contention: ${report.UPLOADS} uploads, 20 % transient faults`,
    "",
    `${report.UPLOADS} uploads of talk.mp4 (24 s: an audio window and a frames window of six frames each) planned at once, then their windows delivered as the platform delivers them: batches of 5, up to each consumer's \`max_concurrency\` batches at once, handed in turn to two isolates that share nothing in memory, retries after their delay (a second in 10 ms), every 7th message delivered twice, dead letters past 8 retries. A fifth of the simulated Workers AI and Media Transformations calls fail transiently; each call is tried twice before its window fails. ${passed ? "Every window was understood as in a clean run." : "**The test failed.**"}`,
    "",
    "| queue | batches | deliveries | retried | duplicated | most batches at once | most in one isolate | dead-lettered |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    row("media-windows", audio),
    row("media-frames", frames),
    "",
    `Vision calls: ${vision.calls} for ${vision.described} frames, each described by exactly one call that answered (${fmt(vision.calls / vision.described, 2)} calls a frame with the failed ones). Planning took ${fmt(elapsed.planning / 1000, 1)} s, the windows ${fmt(elapsed.windows / 1000, 1)} s (inside workerd on this machine, models answering at once).`,
    "",
  ].join("\n");
}
