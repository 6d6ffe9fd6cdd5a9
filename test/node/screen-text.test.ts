import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient, type Client, newTenant, upload, waitForFinal } from "./local-client";
import { freePort, LocalProcess } from "./local-process";

// On-screen text under `npm run dev`: the real screen reader beside wrangler reads the real
// frames of screen-text.mp4 (no sound, no captions; a sign, a caption over a busy picture,
// nothing, a slide), and search, answers and media.understood use what it read.
const ADMIN_TOKEN = "screen-text-admin-token";
let service: LocalProcess;
let stateDir: string;
let api: Client;
let videoId: string;
let indexing: ReturnType<typeof waitForFinal> | undefined;

/** The video once final: whichever test asks first waits for it, so each test runs alone. */
const indexed = () => {
  indexing ??= waitForFinal(api, `/videos/${videoId}`, 180_000, 300);
  return indexing;
};

beforeAll(async () => {
  stateDir = mkdtempSync(path.join(tmpdir(), "vas-screen-text-"));
  service = new LocalProcess(await freePort(), { STATE_DIR: stateDir, ADMIN_TOKEN });
  await service.start();
  ({ api } = await newTenant(adminClient(service, ADMIN_TOKEN), "Screen text"));
  ({ videoId } = await upload(api, "screen-text.mp4"));
}, 300_000);

afterAll(async () => {
  await service?.stop("SIGTERM");
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

describe("on-screen text read locally", () => {
  it("says the frames were read, and shows a real frame as the thumbnail", async () => {
    const video = await indexed();
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
    await indexed();
    const search = await api.call("POST", "/search", { query: "COLD STORAGE" });
    expect(search.status, JSON.stringify(search.body)).toBe(200);
    const hit = search.body.data[0];
    expect(hit, JSON.stringify(search.body)).toMatchObject({ video_id: videoId });
    expect(JSON.stringify(hit)).toMatch(/"kind":"ocr","source":"pp-ocrv4","text":"COLD STORAGE"/);
    const caption = await api.call("POST", "/search", { query: "forklift route closed" });
    expect(caption.body.data[0]?.video_id, JSON.stringify(caption.body)).toBe(videoId);
  });

  it("answers what the sign says from the text read, citing it", async () => {
    await indexed();
    const profile = await api.call("POST", "/profiles", {
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
    const accepted = await api.call("POST", "/runs", {
      source_ids: [videoId],
      profile_id: profile.body.id,
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
    const run = await waitForFinal(api, `/runs/${accepted.body.id}`, 120_000, 300);
    expect(run.status, JSON.stringify(run)).toBe("completed");
    const answers = await api.call("GET", `/runs/${run.id}/answers`);
    const answer = answers.body.data[0];
    expect(answer, JSON.stringify(answer)).toMatchObject({ key: "sign", result_state: "found" });
    expect(JSON.stringify(answer)).toContain("COLD STORAGE");
  });
});
