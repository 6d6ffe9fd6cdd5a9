import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { freePort } from "./local-process";

// A malformed setting the Worker would read on every request (a simulator's, the webhook URL
// policy) is refused by the start script in one line, before migrations or wrangler: a typo
// never starts a service whose requests answer 500, or that quietly keeps another policy.
const ROOT = path.resolve(import.meta.dirname, "../..");

function dev(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "--silent", "dev"], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("exit", (code) => resolve({ code, stderr }));
  });
}

describe("npm run dev with SIMULATE_BROKEN", () => {
  it("refuses a part it does not know, in one line, before starting anything", async () => {
    const stateDir = mkdtempSync(path.join(tmpdir(), "vas-broken-"));
    try {
      const ran = await dev({
        ADAPTERS: "production",
        SIMULATE_BROKEN: "speech,ears",
        PORT: String(await freePort()),
        STATE_DIR: stateDir,
      });
      expect(ran.code).toBe(1);
      expect(ran.stderr.trim().split("\n")).toEqual([
        "SIMULATE_BROKEN takes none or a comma list of speech, vision or media, each optionally :refuse or :quota, not speech,ears",
      ]);
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  });
});

describe("npm run dev with WEBHOOK_ALLOW_LOOPBACK_HTTP", () => {
  it("refuses a value but true or false, which the Worker would read as production's policy", async () => {
    const stateDir = mkdtempSync(path.join(tmpdir(), "vas-loopback-"));
    try {
      const ran = await dev({
        WEBHOOK_ALLOW_LOOPBACK_HTTP: "yes",
        PORT: String(await freePort()),
        STATE_DIR: stateDir,
      });
      expect(ran.code).toBe(1);
      expect(ran.stderr.trim().split("\n")).toEqual([
        'WEBHOOK_ALLOW_LOOPBACK_HTTP must be "true" or "false", not yes',
      ]);
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  });
});
