import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalProcess } from "../local-process";
import { finished, ROOT, vas } from "./cli-runner";
import { startService } from "./service";

// Rulebooks to findings with the `vas` CLI alone, as the README's walk-through does it.
const SLOW = 300_000;
const CSV = path.join(ROOT, "test/fixtures/rulebooks/dock-safety.csv");
const TALK = path.join(ROOT, "test/fixtures/media/talk.mp4");
let service: LocalProcess;
let stateDir: string;
let cliDir: string;
let env: Record<string, string>;

beforeAll(async () => {
  const started = await startService();
  service = started.service;
  stateDir = started.stateDir;
  cliDir = mkdtempSync(path.join(tmpdir(), "vas-cli-"));
  env = {
    VAS_BASE_URL: service.baseUrl,
    VAS_API_KEY: started.apiKey,
    VAS_CONFIG: path.join(cliDir, "config.json"),
    VAS_STATE_FILE: path.join(cliDir, "uploads.json"),
  };
}, SLOW);

afterAll(async () => {
  await service?.stop();
  rmSync(stateDir, { recursive: true, force: true });
  rmSync(cliDir, { recursive: true, force: true });
});

async function json<T>(...args: string[]): Promise<T> {
  const ran = await finished(vas(env, "--json", ...args));
  expect(ran.code, ran.stderr).toBe(0);
  return JSON.parse(ran.stdout) as T;
}

describe("rulebooks, workflows and findings from the vas CLI", () => {
  it(
    "imports a CSV, creates and runs a workflow, lists and reviews its findings",
    async () => {
      const [video] = await json<{ id: string }[]>("upload", TALK, "--wait");
      const [rulebook] = await json<{ id: string; name: string; rules: { title: string }[] }[]>(
        "rulebooks",
        "import",
        CSV,
        "--name",
        "Dock safety",
      );
      expect(rulebook?.name).toBe("Dock safety");
      expect(rulebook?.rules.map((r) => r.title)).toEqual([
        "High visibility vests worn",
        "Spills reported",
        "Hard hats worn",
      ]);
      const listed = await finished(vas(env, "rulebooks", "ls"));
      expect(listed.stdout).toMatch(new RegExp(`^${rulebook?.id}\\s+3 rules\\s+Dock safety$`, "m"));

      const workflow = await json<{ id: string }>(
        "workflows",
        "create",
        "--rulebook",
        rulebook?.id ?? "",
        "--video",
        video?.id ?? "",
        "--name",
        "Dock review",
      );
      const ran = await finished(vas(env, "workflows", "run", workflow.id, "--wait"));
      expect(ran.code, ran.stderr).toBe(0);
      const lines = ran.stdout.trim().split("\n");
      // The run and its summary, then one line per rule and video with the rule's title.
      expect(lines[0]).toMatch(/^run_\S+\s+completed\s+.*over 1 video/);
      expect(lines.slice(1).map((l) => l.replace(/^.*\s{2}/, ""))).toEqual(
        expect.arrayContaining(["High visibility vests worn", "Spills reported", "Hard hats worn"]),
      );
      const runId = lines[0]?.split(/\s+/)[0] ?? "";

      const findings = await json<{ id: string; status: string }[]>(
        "findings",
        "ls",
        "--run",
        runId,
      );
      expect(findings).toHaveLength(3);
      const reviewed = await json<{ status: string; review_note?: string }>(
        "findings",
        "review",
        findings[0]?.id ?? "",
        "--status",
        "confirmed",
        "--note",
        "seen on site",
      );
      expect(reviewed).toMatchObject({ status: "confirmed", review_note: "seen on site" });

      const wrong = await finished(
        vas(env, "findings", "review", findings[0]?.id ?? "", "--status", "ok"),
      );
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toBe(
        "vas: --status must be one of confirmed, dismissed, resolved, open, not ok.\n",
      );
    },
    SLOW,
  );
});
