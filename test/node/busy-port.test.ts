import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "./local-process";

// A second start on a busy port must refuse at once, before migrations, wrangler or a demo
// key: the old behaviour printed "running" with a key minted inside the other server.
const ROOT = path.resolve(import.meta.dirname, "../..");
let server: Server;
let port: number;
let stateDir: string;

function runScript(
  script: string,
): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["run", "--silent", script], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), STATE_DIR: stateDir, ADMIN_TOKEN: "busy-port" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`npm run ${script} did not exit on a busy port:\n${stdout}${stderr}`));
    }, 20_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

beforeAll(async () => {
  port = await freePort();
  stateDir = mkdtempSync(path.join(tmpdir(), "vas-busy-"));
  // A plain TCP server on all interfaces: not ours, and it answers nothing useful.
  server = createServer((socket) => socket.end());
  await new Promise<void>((resolve) => server.listen(port, "0.0.0.0", resolve));
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(stateDir, { recursive: true, force: true });
});

describe("starting on a busy port", () => {
  for (const script of ["dev", "start"]) {
    it(`npm run ${script} refuses with one line, exits non-zero and mints nothing`, async () => {
      const result = await runScript(script);
      expect(result.code).not.toBe(0);
      expect(result.code).not.toBeNull();
      expect(result.stderr).toContain(`port ${port} is in use; set PORT`);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(result.stdout).not.toContain("running");
      expect(result.stdout).not.toMatch(/vas_[0-9a-f]{48}/);
      expect(result.ms).toBeLessThan(10_000);
      expect(existsSync(path.join(stateDir, "demo-key.json"))).toBe(false);
      // Refused before migrations: the state folder was not touched.
      expect(readdirSync(stateDir)).toEqual([]);
    });
  }
});
