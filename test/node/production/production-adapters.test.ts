import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient, type Client, newTenant, poll, upload as uploadFile } from "../local-client";
import { freePort, LocalProcess } from "../local-process";

// The production adapters, unchanged, over the local simulators (ADAPTERS=production): what
// the black-box suite starts with that variable. One process for the burst and the search, and
// one of its own for the crash test, which runs beside the burst: it mostly waits on a lease.
const ADMIN_TOKEN = "production-adapters-admin-token";
const FIXTURES = ["talk.mp4", "minute.mp4", "captions.webm", "subtitles.mkv", "site-walk.mp4"];
/** A started process and a client of one workspace in it. */
interface Target {
  service: LocalProcess;
  api: Client;
}
let main: Target;
const stateDirs: string[] = [];
const services: LocalProcess[] = [];

interface Video {
  id: string;
  status: string;
  progress: number;
  media?: {
    coverage?: { transcript: { origin: string; share: number }[]; scene: { share: number } };
    limitations?: string[];
  };
}

/** Uploads a fixture through its presigned target (the simulated R2 S3 API) and completes it. */
async function upload(target: Target, name: string): Promise<string> {
  const { videoId, targetUrl } = await uploadFile(target.api, name);
  expect(new URL(targetUrl).pathname).toMatch(/^\/__r2\//);
  return videoId;
}

async function waitForAll(target: Target, ids: string[], timeoutMs: number): Promise<Video[]> {
  const videos = await poll(
    (): Promise<Video[]> => Promise.all(ids.map((id) => target.api.get(`/videos/${id}`))),
    (read) => read.every((v) => v.status === "completed" || v.status === "failed"),
    { ms: timeoutMs, everyMs: 1000 },
  );
  if (!videos.every((v) => v.status === "completed" || v.status === "failed"))
    throw new Error(`not done: ${JSON.stringify(videos.map((v) => [v.id, v.status, v.progress]))}`);
  return videos;
}

async function start(service: LocalProcess, extra: Record<string, string>) {
  await service.start({
    ADAPTERS: "production",
    SIMULATE_VISION: "describe",
    SIMULATE_MODEL_LATENCY_MS: "50",
    ...extra,
  });
}

/** A process on an empty state folder of its own, with a workspace and its key. */
async function launch(extra: Record<string, string>): Promise<Target> {
  const stateDir = mkdtempSync(path.join(tmpdir(), "vas-production-"));
  stateDirs.push(stateDir);
  const service = new LocalProcess(await freePort(), { STATE_DIR: stateDir, ADMIN_TOKEN });
  services.push(service);
  await start(service, extra);
  const { api } = await newTenant(adminClient(service, ADMIN_TOKEN), "Production adapters");
  return { service, api };
}

beforeAll(async () => {
  main = await launch({ SIMULATE_FAULT_RATE: "0.2" });
});

afterAll(async () => {
  await Promise.all(services.map((service) => service.stop("SIGTERM")));
  for (const dir of stateDirs) rmSync(dir, { recursive: true, force: true });
});

describe("ADAPTERS=production", () => {
  it("says what runs: the production adapters, with the platform simulated", async () => {
    const res = await fetch(`${main.service.baseUrl}/healthz`);
    expect(await res.json()).toMatchObject({
      status: "ok",
      adapters: "production",
      simulated: ["ai", "media", "vectorize", "r2"],
      understanding: {
        speech: true,
        pictures: true,
        on_screen_text: true,
        sees: "described frames and text written on screen",
        search_kinds: ["transcript", "scene", "ocr", "metadata", "tags", "filename"],
      },
    });
  });

  it("keeps production's webhook URL policy: a loopback receiver is refused unless told", async () => {
    const res = await main.api.fetch("POST", "/webhooks", {
      url: "http://127.0.0.1:9/hook",
      event_types: ["*"],
    });
    const problem = await res.json();
    expect(res.status, JSON.stringify(problem)).toBe(400);
    expect(problem.errors).toEqual([
      { path: "url", message: "must not point at a loopback address" },
    ]);
  });

  it.concurrent("indexes a burst of 50 uploads with a fifth of model calls failing, hearing and seeing them whole", {
    timeout: 600_000,
  }, async () => {
    const ids = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        upload(main, FIXTURES[i % FIXTURES.length] ?? "talk.mp4"),
      ),
    );
    const videos = await waitForAll(main, ids, 480_000);
    for (const video of videos) {
      expect(video.status, JSON.stringify(video)).toBe("completed");
      // A failed model call is retried, never kept as a limitation of the video.
      const failures = (video.media?.limitations ?? []).filter((l) =>
        /failed|malformed|^no-(speech-recognition|visual-analysis|ocr)$/.test(l),
      );
      expect(failures, JSON.stringify(video.media)).toEqual([]);
      const speech = video.media?.coverage?.transcript.find((t) => t.origin === "speech");
      expect(speech?.share, JSON.stringify(video.media)).toBeGreaterThan(0.95);
      expect(video.media?.coverage?.scene.share, JSON.stringify(video.media)).toBeGreaterThan(0.95);
    }
  });

  it.concurrent("finishes windows in flight after a SIGKILL and a restart", {
    timeout: 300_000,
  }, async () => {
    // Slow windows, so some are in flight when the process is killed.
    const target = await launch({
      SIMULATE_MODEL_LATENCY_MS: "1500",
      WORK_LEASE_SECONDS: "20",
      SWEEP_INTERVAL_SECONDS: "5",
    });
    const { service } = target;
    const id = await upload(target, "minute.mp4");
    const video: Video = await poll(
      () => target.api.get(`/videos/${id}`),
      (read) => read.progress > 30,
      { ms: 60_000, everyMs: 200 },
    );
    expect(video.status).toBe("processing");
    await service.stop("SIGKILL");
    await start(service, { WORK_LEASE_SECONDS: "20", SWEEP_INTERVAL_SECONDS: "5" });
    const [done] = await waitForAll(target, [id], 120_000);
    expect(done?.status).toBe("completed");
    expect(done?.media?.coverage?.scene.share).toBeGreaterThan(0.95);
  });

  it("finds a captioned phrase through the embeddings and the simulated Vectorize", async () => {
    const id = await upload(main, "talk.mp4");
    await waitForAll(main, [id], 120_000);
    const found = await main.api.expect(200, "POST", "/search", {
      query: "loading dock",
      video_ids: [id],
    });
    expect(found.data.length, JSON.stringify(found)).toBeGreaterThan(0);
    expect(found.data[0].video_id).toBe(id);
  });
});
