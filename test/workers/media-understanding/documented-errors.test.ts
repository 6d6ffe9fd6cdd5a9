import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { SimulatedMedia } from "../../../simulators/media";
import { ErrorScripts, scriptedErrorsFrom } from "../../../simulators/scripted-errors";
import { SimulatedAi } from "../../../simulators/workers-ai";
import { probeMedia } from "../../../src/media/probe";
import { pacedAi, TransientModelError } from "../../../src/ports/ai/model-calls";
import { understandWhole } from "../../../src/ports/media-understanding/port";
import { WorkersAiMediaUnderstanding } from "../../../src/ports/media-understanding/workers-ai";
import { instantCalls } from "../../helpers/instant-calls";
import { fixtureBytes } from "../../helpers/media-fixtures";
import { bytesSource } from "../../helpers/media-sources";
import { understandInput } from "./probes";

// talk.mp4 (24 s, captioned: one audio window) through the production adapter over the
// simulated Workers AI, its Whisper made to throw each class of error (SIMULATE_ERRORS).
const WHISPER = "@cf/openai/whisper-large-v3-turbo";
const calm = { delay: async () => undefined, fails: () => false };
const instant = instantCalls();
let stored = 0;

async function understandTalk(errors: string) {
  const bytes = fixtureBytes("talk.mp4");
  const objectKey = `videos/vid_errors_${stored++}/source`;
  await env.MEDIA_BUCKET.put(objectKey, bytes);
  const simulated = new SimulatedAi({
    bucket: env.MEDIA_BUCKET,
    faults: calm,
    vision: "describe",
    errors: new ErrorScripts(scriptedErrorsFrom(errors)),
  });
  let whisperCalls = 0;
  const counted = {
    run: (model: string, inputs: unknown) => {
      if (model === WHISPER) whisperCalls++;
      return simulated.run(model, inputs);
    },
  };
  const engine = new WorkersAiMediaUnderstanding({
    ai: pacedAi(counted, instant),
    media: new SimulatedMedia(calm),
    frames: { put: async () => undefined, get: async () => null },
  });
  const source = bytesSource(bytes);
  const probe = await probeMedia(source, { filename: "talk.mp4", contentType: "video/mp4" });
  const u = await understandWhole(engine, understandInput(probe, { objectKey, source }));
  const heard = u.segments.flatMap((s) => s.evidence).filter((e) => e.source.startsWith("whisper"));
  return { u, heard, whisperCalls: () => whisperCalls };
}

describe("a media window meeting each class of documented error", () => {
  it("retries a documented transient code (3040 Out of capacity) and then hears the speech", async () => {
    const { u, heard, whisperCalls } = await understandTalk("speech=3040x2");
    expect(whisperCalls()).toBe(3);
    expect(heard.length).toBeGreaterThan(0);
    expect(u.limitations).not.toContain("speech-recognition-failed");
  });

  it("names a documented permanent code (5004 Invalid data) as a limitation at once", async () => {
    const { u, heard, whisperCalls } = await understandTalk("speech=5004");
    expect(whisperCalls()).toBe(1);
    expect(heard).toEqual([]);
    expect(u.limitations).toContain("speech-recognition-failed");
    expect(u.limitations.some((l) => l.startsWith("model-error:"))).toBe(false);
  });

  it("tries an error with no code three times, then stores its text as a limitation", async () => {
    const { u, heard, whisperCalls } = await understandTalk("speech=unknown");
    expect(whisperCalls()).toBe(3);
    expect(heard).toEqual([]);
    expect(u.limitations).toEqual(
      expect.arrayContaining([
        "speech-recognition-failed",
        "model-error:internal failure (simulated: SIMULATE_ERRORS)",
      ]),
    );
  });

  it("treats a code the table does not list as unknown too, never as a refusal of the codec", async () => {
    const { u, whisperCalls } = await understandTalk("speech=5021");
    expect(whisperCalls()).toBe(3);
    expect(u.limitations).toContain(
      "model-error:5021: undocumented error (simulated: SIMULATE_ERRORS)",
    );
    expect(u.limitations.some((l) => l.startsWith("speech-recognition-refused"))).toBe(false);
  });

  it("logs a documented refusal of every frame as a warning, never as an error", async () => {
    const warned = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const failed = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { u } = await understandTalk("vision=5004");
    expect(u.limitations.some((l) => l.startsWith("vision"))).toBe(true);
    const refusals = warned.mock.calls.map((call) => String(call[0]));
    expect(refusals.length).toBeGreaterThan(0);
    expect(refusals.every((line) => line.includes("media_step_refused"))).toBe(true);
    expect(failed).not.toHaveBeenCalled();
  });

  it("logs an error no page documents, after its attempts, as an error", async () => {
    const failed = vi.spyOn(console, "error").mockImplementation(() => undefined);
    await understandTalk("speech=unknown");
    expect(failed.mock.calls.map((call) => String(call[0]))).toEqual([
      expect.stringContaining("media_step_failed"),
    ]);
  });

  it("throws a transient code still failing at the deadline on, so the window is retried", async () => {
    const bytes = fixtureBytes("talk.mp4");
    const objectKey = `videos/vid_errors_${stored++}/source`;
    await env.MEDIA_BUCKET.put(objectKey, bytes);
    const ai = new SimulatedAi({
      bucket: env.MEDIA_BUCKET,
      faults: calm,
      vision: "describe",
      errors: new ErrorScripts(scriptedErrorsFrom("speech=3007")),
    });
    let clock = 0;
    const engine = new WorkersAiMediaUnderstanding({
      ai: pacedAi(ai, {
        ...instant,
        now: () => clock,
        sleep: async (ms) => {
          clock += ms;
        },
      }),
      media: new SimulatedMedia(calm),
      frames: { put: async () => undefined, get: async () => null },
    });
    const source = bytesSource(bytes);
    const probe = await probeMedia(source, { filename: "talk.mp4", contentType: "video/mp4" });
    const input = understandInput(probe, { objectKey, source });
    const [audio] = engine.plan(input).filter((w) => w.kind === "audio");
    if (!audio) throw new Error("no audio window");
    await expect(engine.understandWindow(input, audio)).rejects.toBeInstanceOf(TransientModelError);
  });
});
