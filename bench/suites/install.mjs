// What the screen reader adds to `npm ci`: a clean install of this commit, and of the same
// commit without the optional dependencies that bring it (ffmpeg, ONNX Runtime with the OCR and
// VAD models): their entries and every package only they need are taken out of package.json
// and the lockfile, so everything else installs exactly as before (`--omit=optional` would
// also drop other packages' platform binaries, workerd's among them). Timed in a fresh clone,
// with the size of `node_modules`. Slow (two installs), so run only when named.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ROOT } from "../../scripts/lib/local.mjs";

export const name = "install";
export const ownService = true;

/** Lockfile paths of the packages a dependency needs, following npm's nested lookup. */
function closure(packages, roots) {
  const seen = new Set();
  const resolve = (from, name) => {
    for (let dir = from; ; ) {
      const at = `${dir ? `${dir}/` : ""}node_modules/${name}`;
      if (packages[at]) return at;
      if (!dir) return null;
      const up = dir.lastIndexOf("/node_modules/");
      dir = up < 0 ? "" : dir.slice(0, up);
    }
  };
  const visit = (key) => {
    if (key === null || seen.has(key)) return;
    seen.add(key);
    const entry = packages[key];
    const needs = { ...entry.dependencies, ...entry.optionalDependencies };
    for (const name of Object.keys(needs)) visit(resolve(key, name));
  };
  for (const [from, name] of roots) visit(resolve(from, name));
  return seen;
}

/** Takes the optional dependencies, and what only they need, out of the clone's manifests. */
function withoutScreenReader(dir) {
  const lockFile = path.join(dir, "package-lock.json");
  const lock = JSON.parse(readFileSync(lockFile, "utf8"));
  const manifestFile = path.join(dir, "package.json");
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8"));
  const packages = lock.packages;
  const root = packages[""];
  const optional = Object.keys(manifest.optionalDependencies ?? {});
  const kept = Object.entries(packages)
    .filter(([key, entry]) => key.startsWith("node_modules/") === false && entry.dependencies)
    .flatMap(([key, entry]) =>
      [entry.dependencies, entry.devDependencies].flatMap((deps) =>
        Object.keys(deps ?? {}).map((name) => [key, name]),
      ),
    );
  const needed = closure(packages, kept);
  const only = [
    ...closure(
      packages,
      optional.map((name) => ["", name]),
    ),
  ].filter((key) => !needed.has(key));
  for (const key of only) delete packages[key];
  delete root.optionalDependencies;
  delete manifest.optionalDependencies;
  writeFileSync(lockFile, JSON.stringify(lock, null, 2));
  writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
  return only.length;
}

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
    const full = install(dir, []);
    const largest = ["onnxruntime-node", "@ffmpeg-installer", "@gutenye", "@techstark", "@img"]
      .map((p) => [p, megabytes(path.join(dir, "node_modules", p))])
      .map(([p, mb]) => `\`${p}\` ${mb.toFixed(0)} MB`);
    const removed = withoutScreenReader(dir);
    const without = install(dir, []);
    return [
      `A fresh clone of this commit, \`npm ci\` with npm's cache already holding every package (so the times are install, not download): in full, then without the optional dependencies and the ${removed} lockfile packages only they need.`,
      "",
      "| install | `npm ci` | `node_modules` |",
      "| --- | ---: | ---: |",
      `| with the screen reader (the default) | ${full.seconds.toFixed(0)} s | ${full.mb.toFixed(0)} MB |`,
      `| without it | ${without.seconds.toFixed(0)} s | ${without.mb.toFixed(0)} MB |`,
      "",
      `**Added: ${(full.mb - without.mb).toFixed(0)} MB and ${(full.seconds - without.seconds).toFixed(0)} s** (${(full.seconds / without.seconds).toFixed(2)}x the time). Largest parts: ${largest.join(", ")}.`,
    ].join("\n");
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
