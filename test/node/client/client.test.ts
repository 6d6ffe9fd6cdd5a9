import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileBlob, type UploadSession, VasClient } from "../../../clients/typescript/src/node";
import type { LocalProcess } from "../local-process";
import { vestsProfile } from "../profiles";
import { finished, ROOT, vas, vasInTerminal } from "./cli-runner";
import { startService, writeBigMp4 } from "./service";

// The typed client and the `vas` CLI against one real local process: a 201 MiB file goes up
// in 21 parts, is interrupted, resumed, completed and processed; the CLI uploads, searches,
// runs, reports, and resumes after Ctrl-C with a progress bar in a terminal.
const SIZE = 201 * 1024 * 1024;
let service: LocalProcess;
let stateDir: string;
let client: VasClient;
let big: { file: string };
let apiKey: string;
let cliDir: string;
let env: Record<string, string>;

const PART = 10 * 1024 * 1024;
// 201 MiB through a local process takes seconds on an idle machine and minutes on a busy one.
const SLOW = 300_000;

/** SHA-256 of every file under `dir` of a part's size (miniflare keeps each part as a file). */
function storedPartHashes(dir: string): Set<string> {
  const sizes = new Set([PART, SIZE % PART]);
  return new Set(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name))
      .filter((file) => sizes.has(statSync(file).size))
      .map((file) => createHash("sha256").update(readFileSync(file)).digest("hex")),
  );
}

beforeAll(async () => {
  big = writeBigMp4(SIZE);
  const started = await startService();
  service = started.service;
  stateDir = started.stateDir;
  apiKey = started.apiKey;
  client = new VasClient({ baseUrl: service.baseUrl, apiKey });
  cliDir = mkdtempSync(path.join(tmpdir(), "vas-cli-"));
  env = {
    VAS_BASE_URL: service.baseUrl,
    VAS_API_KEY: apiKey,
    VAS_CONFIG: path.join(cliDir, "config.json"),
    VAS_STATE_FILE: path.join(cliDir, "uploads.json"),
  };
}, SLOW);

afterAll(async () => {
  await service?.stop();
  rmSync(path.dirname(big.file), { recursive: true, force: true });
  rmSync(stateDir, { recursive: true, force: true });
  rmSync(cliDir, { recursive: true, force: true });
});

describe("the typed client against the local process", () => {
  it(
    "uploads a multipart file, is aborted halfway, resumes only the missing parts",
    async () => {
      const blob = await fileBlob(big.file);
      const controller = new AbortController();
      let session: UploadSession | undefined;
      const interrupted = await client
        .uploadFile(blob, {
          filename: "big.mp4",
          concurrency: 3,
          onSession: (s) => {
            session = s;
          },
          onProgress: (p) => {
            if (p.loaded >= SIZE / 2) controller.abort(new Error("interrupted"));
          },
          signal: controller.signal,
        })
        .catch((error: unknown) => error);
      expect(interrupted).toEqual(new Error("interrupted"));
      expect(session?.strategy).toBe("multipart");
      expect(session?.total_chunks).toBe(21);
      const videoId = session?.video_id ?? "";
      const halfway = await client.api.GET("/videos/{video_id}/upload", {
        params: { path: { video_id: videoId } },
      });
      const recorded = halfway.data?.received_parts ?? [];
      expect(halfway.data?.state).toBe("open");
      expect(recorded.length).toBeGreaterThanOrEqual(10);
      expect(recorded.length).toBeLessThan(21);

      const sent: number[] = [];
      const video = await client.uploadFile(blob, {
        videoId,
        onProgress: (p) => sent.push(p.loaded),
      });
      expect(video.id).toBe(videoId);
      // Only missing parts went up again (one progress event per part): none recorded halfway
      // is sent twice. A part in flight at the abort may still land and be recorded after.
      expect(sent.length).toBeGreaterThan(0);
      expect(sent.length).toBeLessThanOrEqual(21 - recorded.length);
      const done = await client.api.GET("/videos/{video_id}/upload", {
        params: { path: { video_id: videoId } },
      });
      expect(done.data).toMatchObject({ state: "completed", verified_bytes: SIZE });

      // Storage holds every part's bytes: read where miniflare keeps them, since no operation
      // serves an uploaded source back. The file's pattern makes every part distinct.
      const stored = storedPartHashes(stateDir);
      const file = readFileSync(big.file);
      for (let at = 0; at < SIZE; at += PART) {
        const hash = createHash("sha256")
          .update(file.subarray(at, at + PART))
          .digest("hex");
        expect(stored.has(hash), `part at ${at}`).toBe(true);
      }

      const processed = await client.waitForVideo(videoId, { timeoutMs: 240_000 });
      expect(processed.status).toBe("completed");
      expect(processed.duration).toBeGreaterThan(0);
    },
    SLOW,
  );
});

describe("the vas CLI against the local process", () => {
  const talk = path.join(ROOT, "test/fixtures/media/talk.mp4");

  it(
    "uploads with --wait, searches, runs with a Markdown report to a file, lists reports",
    async () => {
      const upload = await finished(vas(env, "--json", "upload", talk, "--wait"));
      // No terminal, so no bar: stderr stays empty for scripts.
      expect(upload.stderr).toBe("");
      expect(upload.code).toBe(0);
      const [video] = JSON.parse(upload.stdout);
      expect(video).toMatchObject({ status: "completed", duration: 24, filename: "talk.mp4" });

      const search = await finished(vas(env, "search", '"loading dock"', "--video", video.id));
      expect(search.code).toBe(0);
      expect(search.stdout.split("\n")[0]).toContain(video.id);
      // Each result shows the text that matched; an empty answer says why, and exit 0.
      expect(search.stdout).toContain("loading dock");
      const none = await finished(vas(env, "search", "zeppelin hangar", "--video", video.id));
      expect(none.code).toBe(0);
      expect(none.stdout).toMatch(/^No result\. No moment of the 1 video searched holds a word/);
      const loose = await finished(
        vas(env, "search", "spill supervisor parking", "--video", video.id, "--threshold", "0"),
      );
      expect(loose.stdout.split("\n")[0]).toContain(video.id);

      const profile = await client.api.POST("/profiles", {
        body: vestsProfile(),
      });
      const profileId = profile.data?.id ?? "";
      const profiles = await finished(vas(env, "profiles"));
      expect(profiles.stdout).toContain(profileId);

      const out = path.join(cliDir, "out.md");
      const command = `'${process.execPath}' clients/typescript/bin/vas.js run --profile ${profileId} --video ${video.id} --wait --report markdown > '${out}'`;
      const run = await finished(spawnShell(command));
      expect(run.code).toBe(0);
      const markdown = readFileSync(out, "utf8");
      expect(markdown).toMatch(/^# /);
      expect(markdown).toContain("Pass");

      const runs = await client.api.GET("/runs", { params: { query: { video_id: video.id } } });
      const runId = runs.data?.data[0]?.id ?? "";
      const reports = await finished(vas(env, "--json", "reports", "--run", runId));
      expect(reports.code).toBe(0);
      expect(JSON.parse(reports.stdout)).toEqual([
        expect.objectContaining({ run_id: runId, format: "markdown" }),
      ]);

      for (const ran of [upload, search, none, loose, profiles, run, reports])
        expect(ran.stdout + ran.stderr).not.toContain(apiKey);
    },
    SLOW,
  );

  it("answers usage mistakes with exit code 2 and one line", async () => {
    const missing = await finished(vas(env, "run", "--video", "vid_1"));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--profile");
    const noKey = await finished(vas({ ...env, VAS_API_KEY: "" }, "videos"));
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toBe("vas: No API key: pass --api-key or set VAS_API_KEY.\n");
  });

  it(
    "resumes an upload interrupted by Ctrl-C, drawing a progress bar in a terminal",
    async () => {
      const first = vas(env, "upload", big.file);
      const firstDone = finished(first);
      let videoId = "";
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        const state = existsSync(env.VAS_STATE_FILE ?? "")
          ? JSON.parse(readFileSync(env.VAS_STATE_FILE ?? "", "utf8"))
          : {};
        videoId = state[path.resolve(big.file)]?.video_id ?? "";
        if (videoId) {
          const upload = await client.api.GET("/videos/{video_id}/upload", {
            params: { path: { video_id: videoId } },
          });
          if ((upload.data?.received_parts.length ?? 0) >= 3) break;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      first.kill("SIGINT");
      const interrupted = await firstDone;
      expect(interrupted.code).toBe(130);
      expect(interrupted.stderr).toContain("run the same command again to resume");
      const halfway = await client.api.GET("/videos/{video_id}/upload", {
        params: { path: { video_id: videoId } },
      });
      expect(halfway.data?.state).toBe("open");

      const resumed = await finished(vasInTerminal(env, "upload", big.file));
      expect(resumed.code).toBe(0);
      // The bar: file name, percentage, bytes of the total, rate and ETA.
      expect(resumed.stdout).toMatch(
        /big\.mp4 \[.+\] 100% \| 201\.0 MiB\/201\.0 MiB \| [\d.]+ \S+\/s \| ETA/,
      );
      expect(resumed.stdout).toContain(videoId);
      const done = await client.api.GET("/videos/{video_id}/upload", {
        params: { path: { video_id: videoId } },
      });
      expect(done.data?.state).toBe("completed");
      expect(JSON.parse(readFileSync(env.VAS_STATE_FILE ?? "", "utf8"))).toEqual({});
    },
    SLOW,
  );
});

function spawnShell(command: string) {
  return spawn("sh", ["-c", command], { cwd: ROOT, env: { ...process.env, ...env } });
}
