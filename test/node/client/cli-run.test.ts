import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VasClient } from "../../../clients/typescript/src/node";
import type { LocalProcess } from "../local-process";
import { vestsProfile } from "../profiles";
import { finished, ROOT, vas } from "./cli-runner";
import { startService } from "./service";

// `vas run` over two videos, one of which nothing is heard or seen of (blank.mp4: no audio,
// no captions, no text on screen; the production adapters' vision simulator describes no frame by default).
const SLOW = 300_000;
const NOTICE = /blank\.mp4: Nothing in this video was heard or seen/;
let service: LocalProcess;
let stateDir: string;
let cliDir: string;
let env: Record<string, string>;
let args: string[];

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
  const media = path.join(ROOT, "test/fixtures/media");
  const upload = await finished(
    vas(env, "--json", "upload", `${media}/talk.mp4`, `${media}/blank.mp4`, "--wait"),
  );
  expect(upload.code, upload.stderr).toBe(0);
  const videos = JSON.parse(upload.stdout) as { id: string; status: string }[];
  expect(videos.map((v) => v.status)).toEqual(["completed", "completed"]);
  const client = new VasClient({ baseUrl: service.baseUrl, apiKey: started.apiKey });
  const profile = await client.api.POST("/profiles", { body: vestsProfile() });
  args = ["--profile", profile.data?.id ?? "", ...videos.flatMap((v) => ["--video", v.id])];
}, SLOW);

afterAll(async () => {
  await service?.stop();
  rmSync(stateDir, { recursive: true, force: true });
  rmSync(cliDir, { recursive: true, force: true });
});

describe("vas run over a video nothing was heard or seen of", () => {
  it("prints the run's notice under its row, as soon as the run is accepted", async () => {
    const ran = await finished(vas(env, "run", ...args));
    expect(ran.code, ran.stderr).toBe(0);
    const [row, ...notes] = ran.stdout.trim().split("\n");
    expect(row).toMatch(/^run_\S+\s+queued\s/);
    expect(notes).toEqual([expect.stringMatching(new RegExp(`^Note: ${NOTICE.source}`))]);
  });

  it(
    "prints the report on stdout, with the notice in it and no Pass, and the notice on stderr",
    async () => {
      const ran = await finished(vas(env, "run", ...args, "--report", "markdown"));
      expect(ran.code, ran.stderr).toBe(0);
      expect(ran.stdout).toMatch(/^# /);
      expect(ran.stdout).toMatch(new RegExp(`^ {2}- ${NOTICE.source}`, "m"));
      expect(ran.stdout).not.toContain("**Limitations:** None");
      expect(ran.stdout).not.toMatch(/\bPass\b/);
      expect(ran.stderr).toMatch(new RegExp(`^vas: Note: ${NOTICE.source}`));
    },
    SLOW,
  );

  it("keeps stdout the bare run under --json, the notice on stderr too", async () => {
    const ran = await finished(vas(env, "--json", "run", ...args, "--wait"));
    expect(ran.code, ran.stderr).toBe(0);
    const run = JSON.parse(ran.stdout) as { status: string; notices: { detail: string }[] };
    expect(run.status).toBe("completed");
    expect(run.notices.map((n) => n.detail)).toEqual([expect.stringMatching(NOTICE)]);
    expect(ran.stderr).toMatch(new RegExp(`^vas: Note: ${NOTICE.source}`));
  });
});

describe("vas usage", () => {
  it("prints a row per day and the totals, and the report as the API answers it under --json", async () => {
    const media = path.join(ROOT, "test/fixtures/media");
    const stored = ["talk.mp4", "blank.mp4"].reduce(
      (sum, file) => sum + statSync(path.join(media, file)).size,
      0,
    );
    const json = await finished(vas(env, "--json", "usage", "--month"));
    expect(json.code, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout) as {
      granularity: string;
      bytes_stored_now: number;
      totals: { videos_uploaded: number; bytes_stored: number; processed_seconds: number };
    };
    expect(report.granularity).toBe("month");
    expect(report.bytes_stored_now).toBe(stored);
    expect(report.totals).toMatchObject({ videos_uploaded: 2, bytes_stored: stored });
    expect(report.totals.processed_seconds).toBeGreaterThan(24);

    const today = new Date().toISOString().slice(0, 10);
    const table = await finished(vas(env, "usage", "--from", today, "--to", today));
    expect(table.code, table.stderr).toBe(0);
    const [header, day, total] = table.stdout.split("\n");
    expect(header).toMatch(/^period\s+uploads\s+stored\s+peak\s+processed s/);
    expect(day).toMatch(new RegExp(`^${today}\\s+2\\s`));
    expect(total).toMatch(/^total\s+2\s/);
    expect(table.stdout).toMatch(/^Stored now: /m);

    const refused = await finished(vas(env, "usage", "--from", "2026-02-30"));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^vas: invalid-request: .*from/);
  });
});
