import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BUILT = Symbol.for("vas.test.client-built");

/**
 * Global setup of the node projects: builds the typed client (the `vas` bin runs the built
 * JS) from the current source once per run, before any file starts. Files that built it
 * themselves rewrote it while another file's CLI was reading it.
 */
export default async function setup(): Promise<void> {
  const memo = globalThis as { [BUILT]?: Promise<unknown> };
  memo[BUILT] ??= promisify(execFile)(process.execPath, [
    path.join(ROOT, "node_modules/typescript/bin/tsc"),
    "-p",
    path.join(ROOT, "clients/typescript/tsconfig.build.json"),
  ]);
  await memo[BUILT];
}
