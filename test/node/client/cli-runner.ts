import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "../../..");
export const VAS = path.join(ROOT, "clients/typescript/bin/vas.js");

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Collects a child's output and its exit. */
export function finished(child: ChildProcess): Promise<Ran> {
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

/** The real `vas` binary (the package's bin, on the built JS) with this environment. */
export function vas(env: Record<string, string>, ...args: string[]): ChildProcess {
  return spawn(process.execPath, [VAS, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** The same under a pseudo-terminal (util-linux `script`), so progress bars render. */
export function vasInTerminal(env: Record<string, string>, ...args: string[]): ChildProcess {
  const command = [process.execPath, VAS, ...args].map((a) => `'${a}'`).join(" ");
  return spawn("script", ["-qfec", command, "/dev/null"], {
    cwd: ROOT,
    env: { ...process.env, ...env, COLUMNS: "120" },
    stdio: ["ignore", "pipe", "pipe"],
  });
}
