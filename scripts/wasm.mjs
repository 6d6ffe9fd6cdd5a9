// npm run wasm: compiles the WebAssembly text modules under src/ (*.wat) to the binaries
// beside them (*.wasm), which the Worker imports. `--check` compiles without writing and
// fails when a committed binary differs from its text (npm test runs it).
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import wabtInit from "wabt";
import { ROOT } from "./lib/local.mjs";

const check = process.argv.includes("--check");
const wabt = await wabtInit();
const sources = readdirSync(path.join(ROOT, "src"), { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".wat"))
  .map((file) => path.join(ROOT, "src", file));

/** The binary of a text module, built the same way every time (no names section). */
export function compile(file) {
  const module = wabt.parseWat(path.basename(file), readFileSync(file, "utf8"), { simd: true });
  try {
    module.validate();
    return Buffer.from(module.toBinary({ log: false, write_debug_names: false }).buffer);
  } finally {
    module.destroy();
  }
}

let stale = 0;
for (const source of sources) {
  const target = source.replace(/\.wat$/, ".wasm");
  const binary = compile(source);
  if (check) {
    let current = null;
    try {
      current = readFileSync(target);
    } catch {}
    if (current === null || !binary.equals(current)) {
      console.error(`${path.relative(ROOT, target)} is not built from its .wat: run npm run wasm`);
      stale++;
    }
  } else {
    writeFileSync(target, binary);
    console.log(`${path.relative(ROOT, target)} (${binary.length} bytes)`);
  }
}
if (stale > 0) process.exit(1);
