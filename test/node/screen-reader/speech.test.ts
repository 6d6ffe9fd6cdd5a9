import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ScreenReaderStart, startScreenReader } from "../../../scripts/lib/screen-reader.mjs";

const MEDIA = path.resolve(import.meta.dirname, "../../fixtures/media");
const fixture = (name: string) => readFileSync(path.join(MEDIA, name));
/** spoken.mp4's speech, as make-speech-span-fixtures.sh measured it (silencedetect). */
const TRUTH: [number, number][] = [
  [4.01, 10.1],
  [20.01, 27.62],
];

interface Heard {
  engine: string;
  seconds: number;
  spans: [number, number][];
  transcript: null | { error: string } | { language: string | null; segments: unknown[] };
}

/**
 * A whisper.cpp server as examples/server/server.cpp answers: POST /inference takes multipart
 * `file` (WAV only, else status 200 with `{"error":"failed to read WAV file"}`) and, with
 * `response_format=verbose_json`, answers the language in full and timed segments. Under
 * `/slow/` it answers only once `release()` is called, as a server on a busy CPU would.
 */
function whisperSimulator(): Promise<{
  server: Server;
  url: string;
  forms: FormData[];
  release: () => void;
}> {
  const forms: FormData[] = [];
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const form = await new Response(Buffer.concat(chunks), {
      headers: { "content-type": req.headers["content-type"] ?? "" },
    }).formData();
    forms.push(form);
    if (req.url === "/slow/inference") {
      await released;
      req.url = "/inference";
    }
    const file = form.get("file");
    const bytes = file instanceof Blob ? Buffer.from(await file.arrayBuffer()) : Buffer.alloc(0);
    res.setHeader("content-type", "application/json");
    if (req.url !== "/inference" || bytes.subarray(0, 4).toString() !== "RIFF")
      return res.end(JSON.stringify({ error: "failed to read WAV file" }));
    const duration = (bytes.length - 44) / 32000;
    res.end(
      JSON.stringify({
        task: "transcribe",
        language: "english",
        duration,
        text: " The loading dock closes at six.\n",
        segments: [{ id: 0, text: " The loading dock closes at six.", start: 4.0, end: 6.1 }],
      }),
    );
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        server,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        forms,
        release,
      }),
    ),
  );
}

async function hear(reader: ScreenReaderStart, bytes: Buffer) {
  const res = await fetch(`${reader.url}/v1/speech`, {
    method: "POST",
    headers: { authorization: `Bearer ${reader.secret}` },
    body: new Uint8Array(bytes),
  });
  return { status: res.status, body: (await res.json()) as Heard };
}

const total = (spans: [number, number][]) => spans.reduce((sum, [s, e]) => sum + e - s, 0);
const overlap = (a: [number, number][], b: [number, number][]) =>
  a.reduce(
    (sum, [s, e]) =>
      sum + b.reduce((t, [u, v]) => t + Math.max(0, Math.min(e, v) - Math.max(s, u)), 0),
    0,
  );

describe("the screen reader's speech spans (Silero VAD), and whisper.cpp when WHISPER_URL is set", () => {
  let reader: ScreenReaderStart;
  let whispering: ScreenReaderStart;
  let whisper: Awaited<ReturnType<typeof whisperSimulator>>;
  beforeAll(async () => {
    whisper = await whisperSimulator();
    [reader, whispering] = await Promise.all([
      startScreenReader({ ...process.env, SCREEN_READER: undefined, WHISPER_URL: undefined }),
      startScreenReader({ ...process.env, SCREEN_READER: undefined, WHISPER_URL: whisper.url }),
    ]);
    expect(reader.notice, "it started").toBeUndefined();
  }, 180_000);
  afterAll(() => {
    reader.child?.kill("SIGTERM");
    whispering.child?.kill("SIGTERM");
    whisper.server.close();
  });

  it("starts with a speech detector, and says it transcribes only with WHISPER_URL", () => {
    expect(reader.speech).toBe("silero-vad@5");
    expect(reader.transcribes).toBe(false);
    expect(whispering.transcribes).toBe(true);
  });

  it("finds the speech of a spoken video without captions where it is, and none outside", async () => {
    const { status, body } = await hear(reader, fixture("spoken.mp4"));
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.seconds).toBeCloseTo(40, 0);
    expect(body.transcript).toBeNull();
    const found = total(body.spans);
    // What it found lies inside the truth (95 %) and covers most of it (75 %).
    expect(overlap(body.spans, TRUTH) / found).toBeGreaterThan(0.95);
    expect(overlap(body.spans, TRUTH) / total(TRUTH)).toBeGreaterThan(0.75);
    expect(body.spans[0]?.[0]).toBeCloseTo(4, 0);
    expect(body.spans.at(-1)?.[1]).toBeCloseTo(27.6, 0);
  });

  it("finds no speech in music alone", async () => {
    const { status, body } = await hear(reader, fixture("music.mp4"));
    expect(status).toBe(200);
    expect(body.spans).toEqual([]);
    expect(body.seconds).toBeCloseTo(20, 0);
  });

  it("refuses what ffmpeg cannot decode as the cut's fault", async () => {
    const { status } = await hear(reader, fixture("not-a-video.mp4"));
    expect(status).toBe(422);
  });

  it("with WHISPER_URL, posts the speech as WAV to whisper.cpp and answers its segments", async () => {
    const { status, body } = await hear(whispering, fixture("spoken.mp4"));
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.transcript).toEqual({
      language: "en",
      segments: [{ start: 4, end: 6.1, text: "The loading dock closes at six." }],
    });
    const form = whisper.forms.at(-1);
    expect(form?.get("response_format")).toBe("verbose_json");
    expect(form?.get("file")).toBeInstanceOf(Blob);
  });

  it("reads frames and finds speech while whisper.cpp is still transcribing another cut", async () => {
    const slow = await startScreenReader({
      ...process.env,
      SCREEN_READER: undefined,
      WHISPER_URL: `${whisper.url}/slow/`,
    });
    try {
      let transcribed = false;
      const sent = whisper.forms.length;
      const held = hear(slow, fixture("spoken.mp4")).finally(() => {
        transcribed = true;
      });
      // Its speech is found and sent to whisper.cpp, which holds it.
      await expect.poll(() => whisper.forms.length, { timeout: 30_000 }).toBeGreaterThan(sent);
      const frame = await fetch(`${slow.url}/v1/frames?offset=2&box=640`, {
        method: "POST",
        headers: { authorization: `Bearer ${slow.secret}` },
        body: new Uint8Array(fixture("screen-text.mp4")),
      });
      const read = (await frame.json()) as { lines: { text: string }[] };
      expect(read.lines.map((l) => l.text)).toContain("COLD STORAGE");
      const music = await hear(slow, fixture("music.mp4"));
      expect(music.body.spans).toEqual([]);
      expect(transcribed, "the held cut is still with whisper.cpp").toBe(false);
      whisper.release();
      const { body } = await held;
      expect(body.transcript).toMatchObject({ language: "en" });
    } finally {
      slow.child?.kill("SIGTERM");
    }
  }, 120_000);

  it("says when whisper.cpp fails, keeping the spans", async () => {
    const broken = await startScreenReader({
      ...process.env,
      SCREEN_READER: undefined,
      WHISPER_URL: `${whisper.url}/nowhere/`,
    });
    try {
      // whisper.cpp answers its errors with status 200 and `{"error": …}`.
      const { body } = await hear({ ...broken }, fixture("spoken.mp4"));
      expect(body.spans.length).toBeGreaterThan(0);
      expect(body.transcript).toEqual({ error: "whisper.cpp: failed to read WAV file" });
    } finally {
      broken.child?.kill("SIGTERM");
    }
  }, 120_000);

  it("starts without speech spans when they are turned off, reading text as before", async () => {
    const off = await startScreenReader({
      ...process.env,
      SCREEN_READER: undefined,
      SPEECH_SPANS: "off",
    });
    try {
      expect(off.notice).toBeUndefined();
      expect(off.speech).toBeNull();
      expect(off.speechNotice).toBe("Speech is not found locally: SPEECH_SPANS=off.");
      const { status } = await hear(off, fixture("spoken.mp4"));
      expect(status).toBe(503);
    } finally {
      off.child?.kill("SIGTERM");
    }
  }, 120_000);
});
