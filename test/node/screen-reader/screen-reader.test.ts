import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ScreenReaderStart, startScreenReader } from "../../../scripts/lib/screen-reader.mjs";

const MEDIA = path.resolve(import.meta.dirname, "../../fixtures/media");
const video = readFileSync(path.join(MEDIA, "screen-text.mp4"));

interface Reading {
  engine: string;
  frame: { content_type: string; base64: string };
  lines: { text: string; confidence: number }[];
}

let reader: ScreenReaderStart;

async function read(bytes: Uint8Array, offset: number, secret = reader.secret) {
  const res = await fetch(`${reader.url}/v1/frames?offset=${offset}&box=640`, {
    method: "POST",
    headers: { authorization: `Bearer ${secret}`, "content-type": "application/octet-stream" },
    body: new Uint8Array(bytes),
  });
  return { status: res.status, body: (await res.json()) as Reading & { error?: string } };
}

describe("the screen reader (the local engine's Node process for on-screen text)", () => {
  beforeAll(async () => {
    reader = await startScreenReader({ ...process.env, SCREEN_READER: undefined });
    expect(reader.notice, "it started").toBeUndefined();
  }, 120_000);
  afterAll(() => {
    reader.child?.kill("SIGTERM");
  });

  it("reads frames side by side, and answers a frame identical to one just read from memory", async () => {
    const health = async () =>
      (await (await fetch(`${reader.url}/healthz`)).json()) as {
        ocr_workers: number;
        frames_read: number;
        frames_identical: number;
      };
    // First in the file, so no frame of this video was read before.
    const before = await health();
    // One OCR worker loads at start; more only when frames wait for one.
    expect(before.ocr_workers).toBe(1);
    // The same frame twice at once, and a different one beside them.
    const [first, again, other] = await Promise.all([
      read(video, 2),
      read(video, 2),
      read(video, 6),
    ]);
    expect(again.body.lines).toEqual(first.body.lines);
    expect(again.body.frame).toEqual(first.body.frame);
    expect(other.body.lines.map((l) => l.text)).toContain("Forklift route closed today");
    const after = await health();
    expect(after.frames_read - before.frames_read).toBe(3);
    expect(after.frames_identical - before.frames_identical).toBe(1);
    expect(after.ocr_workers).toBe(Math.min(2, availableParallelism()));
  });

  it("reads a sign's words from a real frame, confidently, and answers the frame", async () => {
    // screen-text.mp4 shows "COLD STORAGE" over "Authorised staff only" for its first 4 s.
    const { status, body } = await read(video, 2);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.engine).toBe("pp-ocrv4");
    const texts = body.lines.map((l) => l.text);
    expect(texts).toContain("COLD STORAGE");
    expect(texts).toContain("Authorised staff only");
    for (const line of body.lines.filter((l) => l.text === "COLD STORAGE"))
      expect(line.confidence).toBeGreaterThanOrEqual(0.9);
    const jpeg = Buffer.from(body.frame.base64, "base64");
    expect(body.frame.content_type).toBe("image/jpeg");
    expect([...jpeg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  });

  it("reads a caption over a busy picture, and nothing in a frame without text", async () => {
    const caption = await read(video, 6);
    expect(caption.body.lines.map((l) => l.text)).toContain("Forklift route closed today");
    const plain = await read(video, 10);
    expect(plain.status).toBe(200);
    expect(plain.body.lines).toEqual([]);
  });

  it("refuses bytes it cannot decode as the input's fault, and a caller without the secret", async () => {
    const garbage = await read(new TextEncoder().encode("not a video at all"), 0);
    expect(garbage.status, JSON.stringify(garbage.body)).toBe(422);
    const stranger = await read(video, 2, "x".repeat(48));
    expect(stranger.status).toBe(401);
  });

  it("is not started with SCREEN_READER=off, and a start that fails is one notice", async () => {
    const off = await startScreenReader({ ...process.env, SCREEN_READER: "off" });
    expect(off.notice).toBe("On-screen text is not read: SCREEN_READER=off.");
    const failed = await startScreenReader({ ...process.env, SCREEN_READER_PORT: "-1" });
    expect(failed.child).toBeUndefined();
    expect(failed.notice).toMatch(
      /^On-screen text is not read: the screen reader did not start \(.+\)\.$/,
    );
  }, 120_000);
});
