import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { MediaProbe } from "../../../src/domain/media";
import type { EdgeLimits } from "../../../src/ports/media-understanding/edge-media";
import type { VideoUnderstanding } from "../../../src/ports/media-understanding/port";
import {
  type WorkersAiDependencies,
  WorkersAiMediaUnderstanding,
} from "../../../src/ports/media-understanding/workers-ai";
import { probe, track, understandInput } from "./probes";
import {
  decodeBase64,
  imageUris,
  RecordingAi,
  RecordingMedia,
  realisticAnswer,
} from "./recording-fakes";

const WHISPER = "@cf/openai/whisper-large-v3-turbo";
const VISION = "@cf/meta/llama-4-scout-17b-16e-instruct";
const KEY = "videos/vid_01JTEST/original";
const STORED = new Uint8Array(2048).fill(7);

beforeAll(async () => {
  await env.MEDIA_BUCKET.put(KEY, STORED);
});

function world(respond = realisticAnswer, limits: Partial<EdgeLimits> = {}) {
  const ai = new RecordingAi(respond);
  const media = new RecordingMedia();
  const engine = new WorkersAiMediaUnderstanding({ ai, media, bucket: env.MEDIA_BUCKET, limits });
  const run = (p: MediaProbe, size = 4_000_000, objectKey = KEY) =>
    engine.understand(
      understandInput(p, { objectKey, source: { size, read: async () => STORED } }),
    );
  return { ai, media, run };
}
const scenes = (u: VideoUnderstanding) =>
  u.segments.flatMap((s) => s.evidence.filter((e) => e.kind === "scene"));

describe("WorkersAiMediaUnderstanding", () => {
  it("accepts the real binding types", () => {
    const deps = (ai: Ai, media: MediaBinding): WorkersAiDependencies => ({
      ai,
      media,
      bucket: env.MEDIA_BUCKET,
    });
    expect(deps).toBeTypeOf("function");
  });

  it("transcribes chunked base64 audio and describes frames within the edge's reach", async () => {
    const { ai, media, run } = world();
    const u = await run(probe({ duration: 45 }));

    const audio = media.calls.filter((c) => c.output.mode === "audio").map((c) => c.output);
    expect(audio).toEqual([
      { mode: "audio", time: "0s", duration: "30s", format: "m4a" },
      { mode: "audio", time: "30s", duration: "15s", format: "m4a" },
    ]);
    const heard = ai
      .callsTo(WHISPER)
      .map((c) => decodeBase64((c.inputs as { audio: string }).audio));
    expect(heard.sort()).toEqual(["AUDIO@0s+30s", "AUDIO@30s+15s"]);
    expect(media.calls.every((c) => c.inputBytes === STORED.byteLength)).toBe(true);

    const frames = media.calls.filter((c) => c.output.mode === "frame");
    const frameTimes = frames.map((c) => Number.parseFloat(c.output.time ?? ""));
    expect(frameTimes).toEqual(u.segments.map((s) => Math.ceil(s.start)).filter((t) => t <= 30));
    expect(frames[0]?.transform).toEqual({ width: 640, height: 640, fit: "scale-down" });
    expect(frames[0]?.output.format).toBe("jpg");

    const vision = ai.callsTo(VISION);
    expect(vision).toHaveLength(frames.length);
    for (const call of vision) {
      expect(imageUris(call.inputs)[0]).toMatch(/^data:image\/jpeg;base64,/);
      expect(call.inputs).toMatchObject({ response_format: { type: "json_schema" } });
    }

    expect(u.engine).toBe("workers-ai@2");
    expect(u.segments[0]?.sceneDescription).toBe(
      "Frame at 00:00 (vision model): A cook slices tomatoes on a wooden board (0s). " +
        'Recognised speech: "words at 0 more words at 0"',
    );
    expect(u.segments[0]?.tags).toEqual(["kitchen", "tomato", "knife", "lang:en"]);
    expect(u.segments[0]?.evidence).toContainEqual({
      kind: "ocr",
      start: 0,
      end: 0,
      text: "FRESH PASTA",
      source: "vision",
    });
    expect(u.segments[0]?.evidence).toContainEqual(
      expect.objectContaining({ kind: "transcript", start: 1, end: 4, source: "whisper:en" }),
    );
    expect(u.thumbnail).toMatchObject({ source: "frame", contentType: "image/jpeg" });
    expect(new TextDecoder().decode(u.thumbnail.bytes)).toBe("FRAME@0s");

    const beyond = u.segments.filter((s) => Math.ceil(s.start) > 30);
    expect(beyond.length).toBeGreaterThan(0);
    for (const s of beyond) expect(s.evidence.some((e) => e.kind === "scene")).toBe(false);
    expect(u.coverage).toEqual({ transcript: true, ocr: false, scene: false, metadata: false });
    expect(u.limitations).toEqual(
      expect.arrayContaining([
        "frames-out-of-reach",
        "ocr-sampled-frames-only",
        "scene-sampled-one-frame-per-segment",
      ]),
    );
    expect(u.limitations).not.toContain("audio-out-of-reach");
  });

  it("chunks long audio, batches frames per vision call and bounds calls in flight", async () => {
    const limits = { maxSeekSeconds: 600, framesPerVisionCall: 3, concurrency: 2 };
    const { ai, media, run } = world(realisticAnswer, limits);
    const u = await run(probe({ duration: 300 }));

    expect(ai.callsTo(WHISPER)).toHaveLength(10);
    const times = media.calls.filter((c) => c.output.mode === "audio").map((c) => c.output.time);
    expect(new Set(times).size).toBe(10);
    const batches = ai.callsTo(VISION).map((c) => imageUris(c.inputs).length);
    expect(batches.reduce((a, b) => a + b, 0)).toBe(u.segments.length);
    expect(batches.every((n) => n >= 1 && n <= 3)).toBe(true);
    expect(batches.length).toBe(Math.ceil(u.segments.length / 3));
    expect(ai.maxInFlight).toBeLessThanOrEqual(2);
    expect(u.coverage.scene).toBe(true);
    expect(u.coverage.transcript).toBe(true);
    expect(u.limitations).not.toContain("frames-out-of-reach");
  });

  it("drops malformed model output, records it and never turns it into evidence", async () => {
    const respond = (model: string, inputs: unknown) => {
      if (model === WHISPER) {
        return {
          text: "hello invented",
          segments: [
            { start: "one", end: 2, text: "GARBAGE-A" },
            { start: 5, end: 3, text: "GARBAGE-B" },
            { start: 400, end: 401, text: "GARBAGE-C" },
            { start: 10, end: 12, text: " real words " },
          ],
        };
      }
      const time = decodeBase64(imageUris(inputs)[0] ?? "");
      if (time === "FRAME@0s") return { response: "I think it is a kitchen GARBAGE-D" };
      if (time === "FRAME@8s") {
        return { response: { images: [{ image: 7, description: "GARBAGE-E", tags: [] }] } };
      }
      return realisticAnswer(model, inputs);
    };
    const { run } = world(respond);
    const u = await run(probe({ duration: 30 }));

    const texts = u.segments.flatMap((s) => [s.sceneDescription, ...s.evidence.map((e) => e.text)]);
    expect(texts.join("\n")).not.toMatch(/GARBAGE|invented/);
    expect(u.segments.flatMap((s) => s.evidence.map((e) => e.text))).toContain("real words");
    expect(u.limitations).toEqual(
      expect.arrayContaining(["speech-output-malformed", "vision-output-malformed"]),
    );
    expect(u.coverage.transcript).toBe(false);
    expect(u.coverage.scene).toBe(false);
    expect(u.segments[0]?.sceneDescription).not.toContain("Frame at");
    expect(scenes(u).map((e) => e.start)).toEqual([16, 24]);
  });

  it("treats text without timed segments as unusable, not as a transcript", async () => {
    const { run } = world((model, inputs) =>
      model === WHISPER ? { text: "untimed words" } : realisticAnswer(model, inputs),
    );
    const u = await run(probe({ duration: 20 }));
    expect(u.segments.every((s) => s.transcript === "")).toBe(true);
    expect(u.coverage.transcript).toBe(false);
    expect(u.limitations).toContain("speech-output-malformed");
  });

  it("makes no media or model call for a file over the input limit, and keeps its captions", async () => {
    const { ai, media, run } = world();
    const p = probe({ textTracks: [track(0, [[1, 3, "captioned line"]], "eng")] });
    const u = await run(p, 150_000_000);
    expect(media.calls).toEqual([]);
    expect(ai.calls).toEqual([]);
    expect(u.segments[0]?.transcript).toBe("captioned line");
    // Captions for 1-3 s of 30 s do not cover the video.
    expect(u.coverage).toEqual({ transcript: false, ocr: false, scene: false, metadata: false });
    expect(u.extent.transcript.map((t) => t.share)).toEqual([0.1]);
    expect(u.thumbnail.source).toBe("poster");
    expect(u.limitations).toEqual(
      expect.arrayContaining(["input-too-large-for-edge", "no-visual-analysis", "no-ocr"]),
    );
  });

  it("prefers captions for the transcript and keeps recognised speech as evidence", async () => {
    const { run } = world();
    const u = await run(probe({ textTracks: [track(0, [[1, 3, "authored caption"]], "eng")] }));
    const first = u.segments[0];
    expect(first?.transcript).toBe("authored caption");
    expect(first?.sceneDescription).toContain('Captioned speech: "authored caption"');
    expect(first?.evidence.map((e) => e.source)).toEqual(
      expect.arrayContaining(["text-track:0:eng", "whisper:en", "vision"]),
    );
  });

  it("records a failed frame as a limitation and describes the others", async () => {
    const { ai, media, run } = world();
    // Speech at 6–9.5 s moves the first boundary from 8 s to the keyframe at 10 s.
    media.failFramesAt.add(10);
    const u = await run(probe({ duration: 30 }));
    expect(u.segments.map((s) => s.start)).toEqual([0, 10, 18, 26]);
    expect(u.limitations).toContain("frame-extraction-failed");
    expect(scenes(u).map((e) => e.start)).toEqual([0, 18, 26]);
    expect(ai.callsTo(VISION)).toHaveLength(3);
    expect(u.coverage.scene).toBe(false);
  });

  it("says so when the stored video is missing, without calling any model", async () => {
    const { ai, run } = world();
    const u = await run(probe(), 4_000_000, "videos/missing");
    expect(ai.calls).toEqual([]);
    expect(u.limitations).toContain("source-unavailable");
    expect(u.coverage.transcript).toBe(false);
  });

  it("skips speech for a silent file and frames for an audio-only one", async () => {
    const silent = world();
    const s = await silent.run(probe({ audio: null }));
    expect(silent.ai.callsTo(WHISPER)).toEqual([]);
    expect(s.limitations).toEqual(
      expect.arrayContaining(["no-audio-track", "no-speech-recognition"]),
    );
    const audioOnly = world();
    const a = await audioOnly.run(probe({ video: null }));
    expect(audioOnly.media.calls.some((c) => c.output.mode === "frame")).toBe(false);
    expect(a.limitations).toEqual(expect.arrayContaining(["no-video-track", "no-visual-analysis"]));
  });

  it("is deterministic for the same file and the same model answers", async () => {
    const p = probe({ duration: 45, tags: { title: "Fresh Pasta", keywords: [], other: {} } });
    expect(await world().run(p)).toEqual(await world().run(p));
  });
});
