// The static checks `npm test` runs before Vitest, two lanes at a time (the machine it is
// measured on has two cores): each lane runs its commands in order, since later ones read
// what earlier ones wrote. A command's output is printed when it ends; the first failure ends
// the run with its output and exit 1, after the other lane's command in flight has finished.
import { spawn } from "node:child_process";
import { ROOT } from "./lib/local.mjs";

/** Lanes of commands; commands in a lane depend on the ones before them. */
const LANES = [
  [
    ["biome", "ci", "."],
    ["tsc", "--noEmit"],
    ["node", "scripts/openapi.mjs"],
  ],
  [
    ["node", "scripts/env-types.mjs", "--check"],
    ["node", "scripts/wasm.mjs", "--check"],
    ["tsc", "--noEmit", "-p", "tsconfig.node.json"],
    ["tsc", "-p", "clients/typescript/tsconfig.build.json"],
    ["tsc", "--noEmit", "-p", "clients/typescript"],
    ["node", "scripts/deploy-check.mjs"],
  ],
];

let failed = false;

function run(command) {
  const [file, ...args] = command;
  return new Promise((resolve) => {
    const child = spawn(file, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("error", (error) => resolve({ code: 1, output: `${output}${error.message}\n` }));
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}

async function lane(commands) {
  for (const command of commands) {
    if (failed) return;
    const started = Date.now();
    const { code, output } = await run(command);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    process.stdout.write(
      `> ${command.join(" ")} (${seconds} s${code === 0 ? "" : `, exit ${code}`})\n`,
    );
    if (output.trim() !== "") process.stdout.write(`${output.trimEnd()}\n`);
    if (code !== 0) failed = true;
  }
}

await Promise.all(LANES.map(lane));
process.exit(failed ? 1 : 0);
