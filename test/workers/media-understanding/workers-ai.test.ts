import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { MediaProbe, RangeSource } from "../../../src/domain/media";
import { probeMedia } from "../../../src/media/probe";
import type { FrameImage } from "../../../src/media-understanding/assemble";
import { planWindows } from "../../../src/media-understanding/windows";
import { pacedAi, TransientModelError } from "../../../src/ports/ai/model-calls";
import { R2FrameStore } from "../../../src/ports/media-understanding/frame-store";
import { understandWhole } from "../../../src/ports/media-understanding/port";
import {
  type FrameStore,
  type WorkersAiDependencies,
  WorkersAiMediaUnderstanding,
} from "../../../src/ports/media-understanding/workers-ai";
import { bigMp4Source } from "../../helpers/big-mp4";
import { instantCalls, NO_WAIT } from "../../helpers/instant-calls";
import { loopVideo } from "../../helpers/long-video";
import { fixtureBytes } from "../../helpers/media-fixtures";
import { bytesSource } from "../../helpers/media-sources";
import { probe as probeOf, understandInput } from "./probes";
import { audioFacts, RecordingAi, RecordingMedia, realisticAnswer } from "./recording-fakes";

const WHISPER = "@cf/openai/whisper-large-v3-turbo";
const VISION = "@cf/meta/llama-4-scout-17b-16e-instruct";

/** Frames kept in memory, as R2 keeps them for the real adapter. */
class MemoryFrames implements FrameStore {
  readonly kept = new Map<string, FrameImage>();
  async put(videoId: string, frame: FrameImage) {
    this.kept.set(videoId, frame);
  }
  async get(videoId: string) {
    return this.kept.get(videoId) ?? null;
  }
}

const instant = instantCalls();

function world(respond = realisticAnswer) {
  const ai = new RecordingAi(respond);
  const media = new RecordingMedia();
  const frames = new MemoryFrames();
  const engine = new WorkersAiMediaUnderstanding({ ai: pacedAi(ai, instant), media, frames });
  const understand = async (source: RangeSource, filename = "talk.mp4") => {
    const probe = await probeMedia(source, { filename, contentType: "video/mp4" });
    return understandWhole(engine, understandInput(probe, { filename, source }));
  };
  return { ai, media, frames, engine, understand };
}

/** talk.mp4 (24 s, captioned, H.264/AAC) played five times: two minutes of real video. */
async function twoMinutes(): Promise<RangeSource> {
  return bytesSource(await loopVideo(fixtureBytes("talk.mp4"), { loops: 5 }));
}

describe("WorkersAiMediaUnderstanding", () => {
  it("accepts the real binding types", () => {
    const deps = (ai: Ai, media: MediaBinding): WorkersAiDependencies => ({
      ai,
      media,
      frames: new R2FrameStore(env.MEDIA_BUCKET),
    });
    expect(deps).toBeTypeOf("function");
  });

  it("plans audio over the whole duration and a frame every 4 s, eight to a window", () => {
    const windows = planWindows(probeOf({ duration: 125 }), {
      audioWindowSeconds: 30,
      frameIntervalSeconds: 4,
      framesPerWindow: 8,
      maxFrameOffsetSeconds: 30,
      maxInputBytes: 100e6,
      frameBoxPixels: 640,
      concurrency: 3,
    });
    const audio = windows.filter((w) => w.kind === "audio").map((w) => w.plan);
    expect(audio).toEqual([
      { start: 0, end: 30 },
      { start: 30, end: 60 },
      { start: 60, end: 90 },
      { start: 90, end: 120 },
      { start: 120, end: 125 },
    ]);
    const frames = windows.filter((w) => w.kind === "frames");
    const cells = frames.flatMap((w) => (w.plan as { cells: { at: number }[] }).cells);
    expect(frames.map((w) => (w.plan as { cells: unknown[] }).cells.length)).toEqual([8, 8, 8, 8]);
    expect(cells.at(0)).toEqual({ from: 0, to: 4, at: 2 });
    expect(cells.at(-1)).toEqual({ from: 124, to: 125, at: 124.5 });
  });

  it("hears and sees a two-minute video to its end, from small cuts of it", async () => {
    const { ai, media, understand } = world();
    const source = await twoMinutes();
    const u = await understand(source);

    // Five loops of 24.02 s: four whole windows of 30 s and a last one of a tenth of a second.
    const heard = ai.callsTo(WHISPER);
    expect(heard).toHaveLength(5);
    for (const [i, call] of heard.entries()) {
      const facts = await audioFacts((call.inputs as { audio: string }).audio);
      // A cut is an audio-only file of about one window, a small part of the source.
      expect(facts).toMatchObject({ audio: true, video: false });
      if (i < 4) expect(facts.duration).toBeGreaterThan(29.9);
      expect(facts.duration).toBeLessThanOrEqual(30.1);
      expect(facts.bytes).toBeLessThan(source.size / 2);
    }
    expect(media.calls).toHaveLength(31);
    for (const call of media.calls) {
      expect(call.output).toMatchObject({ mode: "frame", format: "jpg" });
      expect(call.inputPackets).toBeGreaterThan(0);
      expect(call.inputBytes).toBeLessThan(source.size / 4);
    }
    expect(ai.callsTo(VISION)).toHaveLength(31);

    const speech = u.segments.flatMap((s) => s.evidence.filter((e) => e.source === "whisper:en"));
    expect(Math.max(...speech.map((e) => e.start))).toBeGreaterThan(96);
    // Each frame stands for two seconds either side of it; frames a little off their cell's
    // middle (the loops are 24.02 s long) leave a few hundredths of a second unseen.
    expect(u.extent.scene.share).toBeGreaterThan(0.98);
    expect(u.extent.transcript.find((t) => t.origin === "speech")?.share).toBe(1);
    expect(u.coverage).toMatchObject({ transcript: true, scene: true, ocr: true });
    expect(u.limitations).not.toContain("no-speech-recognition");
    expect(u.limitations).not.toContain("no-visual-analysis");
    const scenes = u.segments.flatMap((s) => s.evidence.filter((e) => e.kind === "scene"));
    expect(scenes).toHaveLength(31);
    expect(Math.max(...scenes.map((e) => e.start))).toBeGreaterThan(112);
  });

  it("understands a 2 GiB file by its cuts: no binding input near the 100 MB limit", async () => {
    const { ai, media, understand } = world();
    const u = await understand(bigMp4Source(2 * 1024 ** 3));
    expect(ai.callsTo(WHISPER).length).toBeGreaterThan(0);
    expect(media.calls.length).toBeGreaterThan(0);
    expect(Math.max(...media.calls.map((c) => c.inputBytes))).toBeLessThan(1_000_000);
    expect(u.limitations).not.toContain("input-too-large-for-edge");
    expect(u.extent.scene.share).toBe(1);
  });

  it("retries a model's capacity errors and keeps no limitation when it recovers", async () => {
    let failures = 2;
    const { ai, understand } = world(async (model, inputs) => {
      if (model === WHISPER && failures-- > 0)
        throw new Error("3040: Capacity temporarily exceeded, please try again.");
      return realisticAnswer(model, inputs);
    });
    const u = await understand(bytesSource(fixtureBytes("talk.mp4")));
    expect(ai.callsTo(WHISPER)).toHaveLength(3);
    expect(u.limitations).not.toContain("speech-recognition-failed");
    expect(u.extent.transcript.find((t) => t.origin === "speech")?.share).toBe(1);
  });

  it("throws a window whose model stays unavailable, to be retried, and records nothing", async () => {
    const ai = new RecordingAi(async () => {
      throw Object.assign(new Error("Too many requests"), { status: 429 });
    });
    let clock = 0;
    const paced = pacedAi(ai, {
      limiter: NO_WAIT,
      now: () => clock,
      sleep: async (ms) => {
        clock += ms;
      },
    });
    const frames = new MemoryFrames();
    const engine = new WorkersAiMediaUnderstanding({
      ai: paced,
      media: new RecordingMedia(),
      frames,
    });
    const source = bytesSource(fixtureBytes("talk.mp4"));
    const probe = await probeMedia(source, { filename: "talk.mp4", contentType: "video/mp4" });
    const input = understandInput(probe, { source });
    const [audio] = engine.plan(input).filter((w) => w.kind === "audio");
    if (!audio) throw new Error("no audio window");
    await expect(engine.understandWindow(input, audio)).rejects.toBeInstanceOf(TransientModelError);
    expect(ai.calls.length).toBeGreaterThan(3);
  });

  it("names a model's refusal for good as a limitation and invents no speech", async () => {
    const { understand } = world(async (model, inputs) => {
      if (model === WHISPER) throw new Error("5004: Invalid data type for base64 input");
      return realisticAnswer(model, inputs);
    });
    const u = await understand(bytesSource(fixtureBytes("talk.mp4")));
    expect(u.limitations).toContain("speech-recognition-failed");
    expect(u.limitations).toContain("no-speech-recognition");
    expect(u.extent.transcript.some((t) => t.origin === "speech")).toBe(false);
  });

  it("drops malformed model output, records it and never turns it into evidence", async () => {
    const { understand } = world(async (model) =>
      model === WHISPER
        ? { text: "untimed words", segments: [] }
        : { response: "{ not json", usage: {} },
    );
    const u = await understand(bytesSource(fixtureBytes("talk.mp4")));
    expect(u.limitations).toEqual(
      expect.arrayContaining(["speech-output-malformed", "vision-output-malformed"]),
    );
    const evidence = u.segments.flatMap((s) => s.evidence);
    expect(evidence.filter((e) => e.source.startsWith("whisper"))).toEqual([]);
    expect(evidence.filter((e) => e.kind === "scene")).toEqual([]);
    expect(u.extent.scene.seconds).toBe(0);
  });

  it("records a frame the edge could not extract and describes the others", async () => {
    const { media, understand } = world();
    media.failFrames = 1;
    const u = await understand(bytesSource(fixtureBytes("talk.mp4")));
    expect(u.limitations).toContain("frame-extraction-failed");
    expect(u.extent.scene.share).toBeLessThan(1);
    expect(u.extent.scene.share).toBeGreaterThan(0.7);
  });

  it("keeps the first frame as the thumbnail when the file has no cover art", async () => {
    const { frames, understand } = world();
    const u = await understand(bytesSource(fixtureBytes("minute.mp4")), "minute.mp4");
    expect(u.thumbnail.source).toBe("frame");
    expect(frames.kept.get("vid_01JTEST")?.bytes).toEqual(u.thumbnail.bytes);
  });

  it("records an abandoned window as unavailable, never as heard or seen", async () => {
    const { engine } = world();
    const probe: MediaProbe = probeOf({ duration: 30 });
    const input = understandInput(probe);
    const windows = engine.plan(input).map((w) => ({ ...w, result: engine.abandoned(w) }));
    const u = await engine.assemble(input, windows);
    expect(u.limitations).toEqual(
      expect.arrayContaining(["speech-recognition-unavailable", "vision-unavailable"]),
    );
    expect(u.extent.scene.seconds).toBe(0);
    expect(u.coverage.transcript).toBe(false);
  });

  it("is deterministic for the same file and the same model answers", async () => {
    const a = await world().understand(bytesSource(fixtureBytes("talk.mp4")));
    const b = await world().understand(bytesSource(fixtureBytes("talk.mp4")));
    expect(b).toEqual(a);
  });
});
