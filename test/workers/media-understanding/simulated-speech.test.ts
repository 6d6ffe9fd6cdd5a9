import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SimulatedMedia } from "../../../simulators/media";
import { SimulatedAi } from "../../../simulators/workers-ai";
import type { EngineVideo } from "../../../src/answer-engine/types";
import { probeMedia } from "../../../src/media/probe";
import { pacedAi } from "../../../src/ports/ai/model-calls";
import { WorkersAiAnswerEngine } from "../../../src/ports/answer-engine/workers-ai";
import { understandWhole } from "../../../src/ports/media-understanding/port";
import { WorkersAiMediaUnderstanding } from "../../../src/ports/media-understanding/workers-ai";
import { describeUnderstanding } from "../../../src/services/media/understood";
import { instantCalls } from "../../helpers/instant-calls";
import { fixtureBytes, type MediaFixture } from "../../helpers/media-fixtures";
import { bytesSource } from "../../helpers/media-sources";
import { understandInput } from "./probes";

// The production adapter, unchanged, over the simulated Workers AI and Media Transformations:
// what `ADAPTERS=production` runs, one video at a time.
const calm = { delay: async () => undefined, fails: () => false };
const instant = instantCalls();

async function understand(name: MediaFixture) {
  const objectKey = `videos/vid_simspeech_${name.replace(/\W/g, "")}/source`;
  const bytes = fixtureBytes(name);
  await env.MEDIA_BUCKET.put(objectKey, bytes);
  const ai = new SimulatedAi({ bucket: env.MEDIA_BUCKET, faults: calm, vision: "describe" });
  const engine = new WorkersAiMediaUnderstanding({
    ai: pacedAi(ai, instant),
    media: new SimulatedMedia(calm),
    frames: { put: async () => undefined, get: async () => null },
  });
  const source = bytesSource(bytes);
  const probe = await probeMedia(source, { filename: name, contentType: "video/mp4" });
  const u = await understandWhole(engine, understandInput(probe, { objectKey, source }));
  const understood = describeUnderstanding(
    { engine: u.engine, extent: u.extent, limitations: u.limitations },
    probe.duration,
  );
  const speech = u.extent.transcript.filter((t) => t.origin === "speech");
  const heard = u.segments.flatMap((s) => s.evidence.filter((e) => e.source.startsWith("whisper")));
  const video: EngineVideo = {
    id: `vid_${name.replace(/\W/g, "")}`,
    title: name,
    duration: probe.duration,
    coverage: u.coverage,
    extent: u.extent,
    limitations: u.limitations,
    segments: u.segments.map((s, i) => ({
      id: `seg_${i}`,
      start: s.start,
      end: s.end,
      transcript: s.transcript,
      scene_description: s.sceneDescription,
      tags: s.tags,
      evidence: s.evidence,
    })),
  };
  return { u, understood, speech, heard, video, ai };
}

describe("speech through the production adapter over the simulators", () => {
  for (const name of ["german-captions.mp4", "german-speech.mp4"] as const) {
    it(`transcribes ${name} as German, never as English`, async () => {
      const { u, speech, heard } = await understand(name);
      expect(speech.map((t) => [t.source, t.language])).toEqual([["whisper:de", "de"]]);
      expect(heard.length).toBeGreaterThan(0);
      for (const e of heard) expect(e.source).toBe("whisper:de");
      expect(u.tags).not.toContain("lang:en");
    });
  }

  it("hears no speech in a captioned video whose audio is silence, and says so", async () => {
    const { u, understood, speech, heard } = await understand("voice-silence.mp4");
    expect(speech).toEqual([]);
    expect(heard).toEqual([]);
    expect(u.limitations).toContain("no-speech-recognition");
    // What was heard comes from the captions alone.
    expect(understood?.heard_from).toEqual(["text-track:0:eng"]);
    expect(understood?.summary).not.toContain("recognised speech");
  });

  it("hears the spoken cues of a video and not the one over silence", async () => {
    const { understood, speech, heard } = await understand("voice-speech.mp4");
    expect(heard.map((e) => e.text)).toEqual([
      "The loading dock closes at six.",
      "Wear a vest near the forklifts.",
    ]);
    expect(speech.map((t) => [t.source, t.share])).toEqual([["whisper:en", 1]]);
    expect(understood?.heard_from).toContain("whisper:en");
  });

  it("answers a German run over German speech as German, never as English", async () => {
    const understood = await understand("german-speech.mp4");
    const { ai } = understood;
    // Only what was heard: the speech, read in the language Whisper was told.
    const video: EngineVideo = {
      ...understood.video,
      segments: understood.video.segments.map((s) => ({
        ...s,
        evidence: s.evidence.filter((e) => e.source.startsWith("whisper")),
      })),
    };
    const heard = video.segments.flatMap((s) => s.evidence);
    expect(heard.length).toBeGreaterThan(0);
    expect(new Set(heard.map((e) => e.source))).toEqual(new Set(["whisper:de"]));
    const engine = new WorkersAiAnswerEngine({ ai: pacedAi(ai, instant) });
    const ask = (description: string, locale: string) =>
      engine.answer({
        run_id: "run_german",
        instructions: "",
        spec: { answer_key: "q", answer_type: "verdict", description },
        videos: [video],
        locale,
        budget: { media_seconds: 1000, tokens: 100_000 },
      });
    // Found in the German speech, and in nothing English: every cited span is German.
    const closes = await ask("Schließt das Lager um sechs Uhr?", "de-DE");
    expect(closes).toMatchObject({ result_state: "found", answer_payload: { value: true } });
    const cited = closes.answer_payload.evidence_summary.representative;
    expect(cited.map((r) => r.text)).toContain("Das Lager schließt um sechs Uhr.");
    // "Tragt Westen …" is an instruction, read as German: no evidence that vests were worn.
    const vests = await ask("Westen bei den Staplern getragen", "de-DE");
    expect(vests.result_state).not.toBe("found");
    // Under an English run, the German speech is no English transcript: no absence is claimed.
    const english = await ask("Is a crane used?", "en");
    expect(english.result_state).not.toBe("not_found");
  });
});
