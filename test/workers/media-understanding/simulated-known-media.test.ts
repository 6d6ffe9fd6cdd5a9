import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { brokenFrom } from "../../../simulators/broken";
import { SimulatedMedia } from "../../../simulators/media";
import { SimulatedAi, type VisionMode } from "../../../simulators/workers-ai";
import { probeMedia } from "../../../src/media/probe";
import { pacedAi } from "../../../src/ports/ai/model-calls";
import { LocalMediaUnderstanding } from "../../../src/ports/media-understanding/local";
import { understandWhole } from "../../../src/ports/media-understanding/port";
import { WorkersAiMediaUnderstanding } from "../../../src/ports/media-understanding/workers-ai";
import { describeUnderstanding } from "../../../src/services/media/understood";
import { instantCalls } from "../../helpers/instant-calls";
import { fixtureBytes, type MediaFixture } from "../../helpers/media-fixtures";
import { bytesSource } from "../../helpers/media-sources";
import { understandInput } from "./probes";

// The files the simulators know by content (the smoke clip and the trial set), through the
// production adapter over the simulated Workers AI and Media Transformations; and the same
// simulators broken, out of quota, or handed a codec they refuse.
const calm = { delay: async () => undefined, fails: () => false };
const instant = instantCalls();
let stored = 0;

async function understand(
  bytes: Uint8Array,
  name: string,
  options: { broken?: string; vision?: VisionMode } = {},
) {
  const objectKey = `videos/vid_known_${stored++}/source`;
  await env.MEDIA_BUCKET.put(objectKey, bytes);
  const broken = brokenFrom(options.broken);
  const ai = new SimulatedAi({
    bucket: env.MEDIA_BUCKET,
    faults: calm,
    vision: options.vision ?? "refuse",
    broken,
  });
  const engine = new WorkersAiMediaUnderstanding({
    ai: pacedAi(ai, instant),
    media: new SimulatedMedia(calm, broken),
    frames: { put: async () => undefined, get: async () => null },
  });
  const source = bytesSource(bytes);
  const probe = await probeMedia(source, { filename: name, contentType: "video/mp4" });
  const u = await understandWhole(engine, understandInput(probe, { objectKey, source }));
  const understood = describeUnderstanding(
    { engine: u.engine, extent: u.extent, limitations: u.limitations },
    probe.duration,
  );
  const evidence = u.segments.flatMap((s) => s.evidence);
  return { u, probe, understood, evidence };
}

const known = (name: MediaFixture, options: { broken?: string; vision?: VisionMode } = {}) =>
  understand(fixtureBytes(name), name, options);

describe("the smoke clip", () => {
  it("carries nothing the service can read: no caption track, no tag, nothing heard locally", async () => {
    const bytes = fixtureBytes("smoke-clip.mp4");
    const probe = await probeMedia(bytesSource(bytes), {
      filename: "smoke-clip.mp4",
      contentType: "video/mp4",
    });
    expect(probe.textTracks).toEqual([]);
    expect(probe.tags).toEqual({ keywords: [], other: {} });
    expect(probe.coverArt).toBeNull();
    const local = await understandWhole(
      new LocalMediaUnderstanding(),
      understandInput(probe, { source: bytesSource(bytes) }),
    );
    const text = JSON.stringify(local.segments);
    expect(text).not.toMatch(/forklift|helmet|GATE B/i);
  });

  it("is heard and seen through the production adapter, even with vision refusing unknown frames", async () => {
    const { understood, evidence, u } = await known("smoke-clip.mp4");
    expect(understood?.heard_seconds).toBeGreaterThan(0);
    expect(understood?.heard_from).toEqual(["whisper"]);
    expect(understood?.seen_seconds).toBe(12);
    expect(evidence.filter((e) => e.kind === "transcript").map((e) => e.text)).toEqual([
      "The forklift is parked beside the loading bay.",
      "Every visitor wears a yellow helmet.",
    ]);
    expect(evidence.filter((e) => e.kind === "ocr").map((e) => e.text)).toEqual([
      "GATE B",
      "SHIFT 2",
      "SHIFT 2",
    ]);
    expect(u.limitations).not.toContain("speech-recognition-failed");
    expect(u.limitations).not.toContain("vision-failed");
  });

  it("is known by its bytes: the same clip with one byte changed is neither heard nor seen", async () => {
    const bytes = fixtureBytes("smoke-clip.mp4");
    // A byte of the x264 settings string in the first video sample: still a valid video.
    const at = new TextDecoder("latin1").decode(bytes).indexOf("x264 - core");
    expect(at).toBeGreaterThan(0);
    bytes[at] = "X".charCodeAt(0);
    const { understood, u } = await understand(bytes, "smoke-clip.mp4");
    expect(understood?.heard_seconds).toBe(0);
    expect(understood?.seen_seconds).toBe(0);
    expect(u.limitations).toEqual(
      expect.arrayContaining(["speech-recognition-failed", "vision-failed"]),
    );
  });
});

describe("SIMULATE_BROKEN: a part refusing every call for good becomes named limitations", () => {
  it("speech: nothing heard, the refusal naming the audio codec; pictures still seen", async () => {
    const { understood, u } = await known("smoke-clip.mp4", { broken: "speech" });
    expect(understood?.heard_seconds).toBe(0);
    expect(understood?.seen_seconds).toBe(12);
    expect(u.limitations).toEqual(
      expect.arrayContaining([
        "no-speech-recognition",
        "speech-recognition-failed",
        "speech-recognition-refused:aac",
      ]),
    );
  });

  it("vision: nothing seen; speech still heard", async () => {
    const { understood, u } = await known("smoke-clip.mp4", { broken: "vision" });
    expect(understood?.heard_seconds).toBeGreaterThan(0);
    expect(understood?.seen_seconds).toBe(0);
    expect(u.limitations).toEqual(expect.arrayContaining(["no-visual-analysis", "vision-failed"]));
  });

  it("media: no frame extracted, the refusal naming the video codec", async () => {
    const { understood, u } = await known("smoke-clip.mp4", { broken: "media" });
    expect(understood?.seen_seconds).toBe(0);
    expect(u.limitations).toEqual(
      expect.arrayContaining(["frame-extraction-failed", "frame-extraction-refused:avc"]),
    );
  });

  it("quotas: each named by the service whose allocation ran out", async () => {
    const speech = await known("smoke-clip.mp4", { broken: "speech:quota" });
    expect(speech.u.limitations).toContain("quota-exceeded:workers-ai");
    expect(speech.u.limitations).not.toContain("speech-recognition-refused:aac");
    const vision = await known("smoke-clip.mp4", { broken: "vision:quota" });
    expect(vision.u.limitations).toContain("quota-exceeded:workers-ai");
    const media = await known("smoke-clip.mp4", { broken: "media:quota" });
    expect(media.u.limitations).toEqual(
      expect.arrayContaining(["frame-extraction-failed", "quota-exceeded:media-transformations"]),
    );
    expect(media.u.limitations.filter((l) => l.startsWith("frame-extraction-refused"))).toEqual([]);
  });

  it("refuses a malformed setting rather than breaking nothing", () => {
    expect(brokenFrom("speech, media:quota")).toEqual(
      new Map([
        ["speech", "refuse"],
        ["media", "quota"],
      ]),
    );
    expect(brokenFrom(undefined).size).toBe(0);
    expect(() => brokenFrom("ears")).toThrow(/SIMULATE_BROKEN/);
    expect(() => brokenFrom("speech:sometimes")).toThrow(/SIMULATE_BROKEN/);
  });
});

describe("the trial set over the simulators", () => {
  it("names HEVC and AV1, which the simulated Media Transformations refuses, and still hears them", async () => {
    for (const [name, codec] of [
      ["trial-phone-hevc.mov", "hevc"],
      ["trial-av1.mp4", "av1"],
    ] as const) {
      const { understood, u } = await known(name);
      expect(understood?.seen_seconds, name).toBe(0);
      expect(understood?.heard_seconds, name).toBeGreaterThan(0);
      expect(u.limitations, name).toEqual(
        expect.arrayContaining(["frame-extraction-failed", `frame-extraction-refused:${codec}`]),
      );
    }
  });

  it("hears and sees a browser's live WebM (VP9 and Opus, no Cues)", async () => {
    const { understood, evidence, probe } = await known("trial-browser.webm");
    expect([probe.video?.codec, probe.audio?.codec]).toEqual(["vp9", "opus"]);
    expect(understood?.heard_seconds).toBeGreaterThan(0);
    expect(understood?.seen_seconds).toBeGreaterThan(8);
    expect(evidence.some((e) => e.text.includes("microphone"))).toBe(true);
  });

  it("hears German speech without captions as speech of no known language, never as English", async () => {
    const { understood, evidence } = await known("trial-german.mp4");
    expect(understood?.heard_from).toEqual(["whisper"]);
    expect(evidence.filter((e) => e.kind === "transcript").map((e) => e.text)).toContain(
      "Der Gabelstapler steht vor dem Tor.",
    );
  });
});
