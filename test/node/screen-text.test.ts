import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, LocalProcess } from "./local-process";

// On-screen text under `npm run dev`: the real screen reader beside wrangler reads the real
// frames of screen-text.mp4 (no sound, no captions; a sign, a caption over a busy picture,
// nothing, a slide), and search, answers and media.understood use what it read.
const ROOT = path.resolve(import.meta.dirname, "../..");
const ADMIN_TOKEN = "screen-text-admin-token";
let service: LocalProcess;
let stateDir: string;
let api: string;
let headers: Record<string, string>;
let videoId: string;

async function call(method: string, url: string, body?: unknown) {
  const res = await fetch(url.startsWith("http") ? url : `${api}${url}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, ms: number) {
  const deadline = Date.now() + ms;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    value = await read();
  }
  return value;
}

beforeAll(async () => {
  stateDir = mkdtempSync(path.join(tmpdir(), "vas-screen-text-"));
  service = new LocalProcess(await freePort(), { STATE_DIR: stateDir, ADMIN_TOKEN });
  await service.start();
  api = `${service.baseUrl}/api/v1alpha1`;
  headers = { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" };
  const workspace = await call("POST", `${service.baseUrl}/admin/v1/workspaces`, {
    name: "Screen text",
    alpha_opt_in: true,
  });
  const key = await call("POST", `${service.baseUrl}/admin/v1/keys`, {
    workspace_id: workspace.body.id,
    type: "alpha",
    permissions: ["*"],
  });
  headers = { authorization: `Bearer ${key.body.key}`, "content-type": "application/json" };

  const bytes = readFileSync(path.join(ROOT, "test/fixtures/media/screen-text.mp4"));
  const session = await call("POST", "/videos", {
    filename: "screen-text.mp4",
    file_size: bytes.length,
  });
  videoId = session.body.video_id;
  const put = await fetch(session.body.target.url, {
    method: "PUT",
    headers: session.body.target.headers,
    body: bytes,
  });
  expect(put.status).toBe(200);
  expect((await call("POST", `/videos/${videoId}/upload/complete`, {})).status).toBe(200);
}, 300_000);

afterAll(async () => {
  await service?.stop("SIGTERM");
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

describe("on-screen text read locally", () => {
  it("says the frames were read, and shows a real frame as the thumbnail", async () => {
    const video = await waitFor(
      async () => (await call("GET", `/videos/${videoId}`)).body,
      (v) => v.status === "completed" || v.status === "failed",
      180_000,
    );
    expect(video.status, JSON.stringify(video)).toBe("completed");
    expect(service.output).not.toContain("On-screen text is not read");
    expect(video.media.understood).toMatchObject({ heard_seconds: 0, seen_seconds: 16 });
    expect(video.media.understood.summary).toContain(
      "Saw 16 s of 16 s through frames read for on-screen text",
    );
    expect(video.media.understood.warning).toBeUndefined();
    const thumbnail = await fetch(video.thumbnail_url);
    expect(thumbnail.headers.get("content-type")).toBe("image/jpeg");
  });

  it("finds words written large on screen, as ocr at the frame that shows them", async () => {
    const search = await call("POST", "/search", { query: "COLD STORAGE" });
    expect(search.status, JSON.stringify(search.body)).toBe(200);
    const hit = search.body.data[0];
    expect(hit, JSON.stringify(search.body)).toMatchObject({ video_id: videoId });
    expect(JSON.stringify(hit)).toMatch(/"kind":"ocr","source":"pp-ocrv4","text":"COLD STORAGE"/);
    const caption = await call("POST", "/search", { query: "forklift route closed" });
    expect(caption.body.data[0]?.video_id, JSON.stringify(caption.body)).toBe(videoId);
  });

  it("answers what the sign says from the text read, citing it", async () => {
    const profile = await call("POST", "/profiles", {
      name: "Signs",
      instructions: "Read the screen.",
      answer_specs: [
        {
          answer_key: "sign",
          answer_type: "synthesis",
          description: "What does the sign say?",
          evidence: { accepted_types: ["on_screen_text"], required: true },
        },
      ],
    });
    expect(profile.status, JSON.stringify(profile.body)).toBe(201);
    const accepted = await call("POST", "/runs", {
      source_ids: [videoId],
      profile_id: profile.body.id,
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
    const run = await waitFor(
      async () => (await call("GET", `/runs/${accepted.body.id}`)).body,
      (r) => ["completed", "failed", "canceled"].includes(r.status),
      120_000,
    );
    expect(run.status, JSON.stringify(run)).toBe("completed");
    const answers = await call("GET", `/runs/${run.id}/answers`);
    const answer = answers.body.data[0];
    expect(answer, JSON.stringify(answer)).toMatchObject({ key: "sign", result_state: "found" });
    expect(JSON.stringify(answer)).toContain("COLD STORAGE");
  });
});
