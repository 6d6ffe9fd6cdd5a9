import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, LocalProcess } from "../local-process";

// The production adapters, unchanged, over the local simulators (ADAPTERS=production): what
// the black-box suite starts with that variable. One process, restarted by the crash test.
const ROOT = path.resolve(import.meta.dirname, "../../..");
const ADMIN_TOKEN = "production-adapters-admin-token";
const FIXTURES = ["talk.mp4", "minute.mp4", "captions.webm", "subtitles.mkv", "site-walk.mp4"];
let service: LocalProcess;
let stateDir: string;
let key: string;

interface Video {
  id: string;
  status: string;
  progress: number;
  media?: {
    coverage?: { transcript: { origin: string; share: number }[]; scene: { share: number } };
  };
}

async function admin(route: string, body: unknown) {
  const res = await fetch(`${service.baseUrl}/admin/v1${route}`, {
    method: "POST",
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

async function api(method: string, route: string, body?: unknown) {
  const res = await fetch(`${service.baseUrl}/api/v1alpha1${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  expect(res.ok, `${method} ${route}: ${res.status} ${text}`).toBe(true);
  return text === "" ? null : JSON.parse(text);
}

/** Uploads a fixture through its presigned target (the simulated R2 S3 API) and completes it. */
async function upload(name: string): Promise<string> {
  const bytes = readFileSync(path.join(ROOT, "test/fixtures/media", name));
  const session = await api("POST", "/videos", { filename: name, file_size: bytes.byteLength });
  const put = await fetch(session.target.url, {
    method: "PUT",
    headers: session.target.headers,
    body: bytes,
  });
  expect(put.status, await put.clone().text()).toBe(200);
  expect(new URL(session.target.url).pathname).toMatch(/^\/__r2\//);
  await api("POST", `/videos/${session.video_id}/upload/complete`, {});
  return session.video_id;
}

async function waitForAll(ids: string[], timeoutMs: number): Promise<Video[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const videos: Video[] = await Promise.all(ids.map((id) => api("GET", `/videos/${id}`)));
    if (videos.every((v) => v.status === "completed" || v.status === "failed")) return videos;
    if (Date.now() > deadline)
      throw new Error(
        `not done: ${JSON.stringify(videos.map((v) => [v.id, v.status, v.progress]))}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

async function start(extra: Record<string, string>) {
  await service.start({
    ADAPTERS: "production",
    SIMULATE_VISION: "describe",
    SIMULATE_MODEL_LATENCY_MS: "50",
    ...extra,
  });
}

beforeAll(async () => {
  stateDir = mkdtempSync(path.join(tmpdir(), "vas-production-"));
  service = new LocalProcess(await freePort(), { STATE_DIR: stateDir, ADMIN_TOKEN });
  await start({ SIMULATE_FAULT_RATE: "0.2" });
  const workspace = await admin("/workspaces", { name: "Production adapters", alpha_opt_in: true });
  ({ key } = await admin("/keys", {
    workspace_id: workspace.id,
    type: "alpha",
    permissions: ["*"],
  }));
});

afterAll(async () => {
  await service?.stop("SIGTERM");
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

describe("ADAPTERS=production", () => {
  it("says what runs: the production adapters, with the platform simulated", async () => {
    const res = await fetch(`${service.baseUrl}/healthz`);
    expect(await res.json()).toEqual({
      status: "ok",
      adapters: "production",
      simulated: ["ai", "media", "vectorize", "r2"],
    });
  });

  it("indexes a burst of uploads with a fifth of model calls failing, hearing and seeing them whole", async () => {
    const ids = await Promise.all(
      Array.from({ length: 15 }, (_, i) => upload(FIXTURES[i % FIXTURES.length] ?? "talk.mp4")),
    );
    const videos = await waitForAll(ids, 240_000);
    for (const video of videos) {
      expect(video.status, JSON.stringify(video)).toBe("completed");
      const speech = video.media?.coverage?.transcript.find((t) => t.origin === "speech");
      expect(speech?.share, JSON.stringify(video.media)).toBeGreaterThan(0.95);
      expect(video.media?.coverage?.scene.share, JSON.stringify(video.media)).toBeGreaterThan(0.95);
    }
  });

  it("finds a captioned phrase through the embeddings and the simulated Vectorize", async () => {
    const id = await upload("talk.mp4");
    await waitForAll([id], 120_000);
    const found = await api("POST", "/search", { query: "loading dock", video_ids: [id] });
    expect(found.data.length, JSON.stringify(found)).toBeGreaterThan(0);
    expect(found.data[0].video_id).toBe(id);
  });

  it("finishes windows in flight after a SIGKILL and a restart", async () => {
    await service.stop("SIGTERM");
    // Slow windows, so some are in flight when the process is killed.
    await start({
      SIMULATE_MODEL_LATENCY_MS: "1500",
      WORK_LEASE_SECONDS: "20",
      SWEEP_INTERVAL_SECONDS: "5",
    });
    const id = await upload("minute.mp4");
    const deadline = Date.now() + 60_000;
    let video: Video = await api("GET", `/videos/${id}`);
    while (video.progress <= 30 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      video = await api("GET", `/videos/${id}`);
    }
    expect(video.status).toBe("processing");
    await service.stop("SIGKILL");
    await start({ WORK_LEASE_SECONDS: "20", SWEEP_INTERVAL_SECONDS: "5" });
    const [done] = await waitForAll([id], 120_000);
    expect(done?.status).toBe("completed");
    expect(done?.media?.coverage?.scene.share).toBeGreaterThan(0.95);
  });
});
