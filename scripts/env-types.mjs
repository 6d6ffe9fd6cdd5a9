// npm run types [-- --check]: the Env interface from `wrangler types`, written to
// worker-configuration.d.ts, or (with --check) compared with it; the check runs in npm test.
//
// Secrets are left out (`--env-file /dev/null`): wrangler would otherwise read the
// git-ignored .dev.vars, and the output would differ between machines. src/env.ts lists them.
// wrangler (4.86 to 4.155) types a Vectorize binding as the legacy V1 `VectorizeIndex`; the
// index is V2, so that one name is corrected after generation. Newer wrangler names the output
// file in more than one place of its header, so the scratch name is replaced wherever it is.
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./lib/local.mjs";

const TARGET = "worker-configuration.d.ts";
const check = process.argv.includes("--check");
// Same folder as the target, so the generated relative imports are the same.
const scratch = `.worker-configuration.${process.pid}.d.ts`;

function generate() {
  const result = spawnSync(
    path.join(ROOT, "node_modules", ".bin", "wrangler"),
    ["types", scratch, "--include-runtime=false", "--strict-vars=false", "--env-file", "/dev/null"],
    { cwd: ROOT, encoding: "utf8", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
  );
  try {
    if (result.status !== 0) {
      process.stderr.write(result.stdout + result.stderr);
      throw new Error("wrangler types failed");
    }
    const text = readFileSync(path.join(ROOT, scratch), "utf8");
    return text
      .replaceAll(scratch, TARGET)
      .replace(/^(\s+VECTORIZE\??: )VectorizeIndex;$/gm, "$1Vectorize;");
  } finally {
    rmSync(path.join(ROOT, scratch), { force: true });
  }
}

const generated = generate();
if (!check) {
  writeFileSync(path.join(ROOT, TARGET), generated);
  console.log(`wrote ${TARGET}`);
} else {
  let current = "";
  try {
    current = readFileSync(path.join(ROOT, TARGET), "utf8");
  } catch {
    // A missing file is out of date like any other.
  }
  if (current !== generated) {
    console.error(`${TARGET} does not match wrangler.toml: run \`npm run types\` and commit it.`);
    process.exit(1);
  }
  console.log(`${TARGET} matches wrangler.toml`);
}
