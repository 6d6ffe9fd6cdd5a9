import { describe, expect, it } from "vitest";
import { probeMedia } from "../../../src/media/probe";
import type { FrameImage } from "../../../src/media-understanding/assemble";
import { answerLocally } from "../../../src/ports/answer-engine/local";
import type { FrameStore } from "../../../src/ports/media-understanding/frames-window";
import { LocalMediaUnderstanding } from "../../../src/ports/media-understanding/local";
import { understandWhole } from "../../../src/ports/media-understanding/port";
import type { HeardCut, ScreenReader, SpeechSpans } from "../../../src/ports/screen-reader/port";
import { describeUnderstanding } from "../../../src/services/media/understood";
import { fixtureBytes, type MediaFixture } from "../../helpers/media-fixtures";
import { bytesSource } from "../../helpers/media-sources";
import { request } from "../answer-engine/fixtures";
import { understandInput } from "./probes";

const NO_TEXT: ScreenReader = {
  engine: "pp-ocrv4",
  read: async () => ({
    frame: { contentType: "image/jpeg", bytes: new Uint8Array([255]) },
    lines: [],
  }),
};
const frames: FrameStore = {
  put: async (_id: string, _f: FrameImage) => undefined,
  get: async () => null,
};

/**
 * Answers for each cut the outer bounds of the speech the sidecar's Silero VAD finds in
 * spoken.mp4 (test/node/screen-reader/speech.test.ts), from the cut's start; records every cut.
 */
class ScriptedSpeech implements SpeechSpans {
  readonly engine = "silero-vad@5";
  readonly transcribes = false;
  readonly cuts: Uint8Array[] = [];
  constructor(private readonly answer: (call: number) => HeardCut) {}
  async hear(cut: Uint8Array): Promise<HeardCut> {
    this.cuts.push(cut);
    return this.answer(this.cuts.length - 1);
  }
}

const SPOKEN: HeardCut[] = [
  {
    seconds: 30,
    spans: [
      [4.0, 10.17],
      [20.19, 27.65],
    ],
    transcript: null,
  },
  { seconds: 10.03, spans: [], transcript: null },
];

const spokenAnswer = (call: number): HeardCut =>
  SPOKEN[call] ?? { seconds: 0, spans: [], transcript: null };

async function understand(name: MediaFixture, speech: SpeechSpans | undefined) {
  const source = bytesSource(fixtureBytes(name));
  const probe = await probeMedia(source, { filename: name, contentType: "video/mp4" });
  const engine = new LocalMediaUnderstanding({
    reader: NO_TEXT,
    frames,
    ...(speech ? { speech } : {}),
  });
  const input = understandInput(probe, { filename: name, source });
  return { engine, input, probe, u: await understandWhole(engine, input) };
}

/** The engine's view of an understood video, as the index stores it. */
function engineVideo(id: string, duration: number, u: Awaited<ReturnType<typeof understand>>["u"]) {
  return {
    id,
    title: u.title ?? id,
    duration,
    coverage: u.coverage,
    extent: u.extent,
    limitations: u.limitations,
    segments: u.segments.map((s) => ({
      id: `seg_${id}_${s.index}`,
      start: s.start,
      end: s.end,
      transcript: s.transcript,
      scene_description: s.sceneDescription,
      tags: s.tags,
      evidence: s.evidence,
    })),
  };
}

describe("the local engine with speech spans", () => {
  it("hears each 30 s of a spoken video without captions and stores where the speech is", async () => {
    const speech = new ScriptedSpeech(spokenAnswer);
    const { engine, input, u } = await understand("spoken.mp4", speech);
    expect(engine.plan(input).filter((w) => w.kind === "audio")).toHaveLength(2);
    expect(speech.cuts).toHaveLength(2);
    expect(u.extent.speech?.source).toBe("silero-vad@5");
    expect(u.extent.speech?.spans).toEqual([
      { start: 4, end: 10.17 },
      { start: 20.19, end: 27.65 },
    ]);
    expect(u.extent.speech?.speech_seconds).toBeCloseTo(13.63, 2);
    expect(u.extent.speech?.inspected.share).toBeGreaterThan(0.95);
    expect(u.extent.transcript).toEqual([]);
    expect(u.limitations).toContain("no-speech-recognition");
  });

  it("says in media.understood that speech is present and not transcribed", async () => {
    const { u, probe } = await understand("spoken.mp4", new ScriptedSpeech(spokenAnswer));
    const understood = describeUnderstanding(
      {
        engine: u.engine,
        extent: u.extent,
        limitations: u.limitations,
        audio: { codec: "mp4a", channels: 1, sample_rate: 22050 },
      },
      probe.duration,
    );
    expect(understood?.speech_seconds).toBe(13.6);
    expect(understood?.heard_seconds).toBe(0);
    expect(understood?.summary).toContain(
      "Speech present for 13.6 s (at 4–10.2 s, 20.2–27.7 s), not transcribed locally.",
    );
    expect(understood?.summary).not.toContain("Heard nothing");
    expect(understood?.warning).toMatch(
      /^Speech is present for 13.6 s but is not transcribed locally/,
    );
  });

  it("answers a question about what was said not_checked, speech_not_transcribed", async () => {
    const { u, probe } = await understand("spoken.mp4", new ScriptedSpeech(spokenAnswer));
    const v = engineVideo("vid_spoken", probe.duration, u);
    for (const evidence of [{ accepted_types: ["speech"] }, undefined]) {
      const a = answerLocally(
        request(
          {
            answer_type: "verdict",
            description: 'Did the speaker say "sign out at the gate"?',
            ...(evidence ? { evidence } : {}),
          },
          [v],
        ),
      );
      expect(a.result_state, JSON.stringify(a)).toBe("not_checked");
      expect(a.reason_code).toBe("speech_not_transcribed");
      expect(a.answer_payload.summary).toMatch(
        /Speech is present in 1 of 1 video \(13.6 s\) but was not transcribed/,
      );
    }
  });

  it("states that music alone holds no speech, over the whole audio", async () => {
    const speech = new ScriptedSpeech(() => ({ seconds: 20.02, spans: [], transcript: null }));
    const { u, probe } = await understand("music.mp4", speech);
    expect(u.extent.speech).toMatchObject({ speech_seconds: 0, spans: [] });
    const understood = describeUnderstanding(
      {
        engine: u.engine,
        extent: u.extent,
        limitations: u.limitations,
        audio: { codec: "mp4a", channels: 1, sample_rate: 22050 },
      },
      probe.duration,
    );
    expect(understood?.speech_seconds).toBe(0);
    expect(understood?.summary).toContain("No speech in the audio: all 20 s were inspected.");
  });

  it("transcribes into whisper evidence when the sidecar hears words", async () => {
    const speech = new ScriptedSpeech((i) =>
      i === 0
        ? {
            seconds: 30,
            spans: [[4, 10.17]],
            transcript: {
              language: "en",
              segments: [{ start: 4, end: 6.1, text: "The loading dock closes at six." }],
            },
          }
        : { seconds: 10.03, spans: [], transcript: null },
    );
    const { u } = await understand("spoken.mp4", speech);
    const said = u.segments.flatMap((s) => s.evidence.filter((e) => e.kind === "transcript"));
    expect(said.map((e) => [e.source, e.text])).toEqual([
      ["whisper:en", "The loading dock closes at six."],
    ]);
    expect(u.extent.transcript).toEqual([
      expect.objectContaining({ origin: "speech", source: "whisper:en", seconds: 30 }),
    ]);
    expect(u.limitations).not.toContain("no-speech-recognition");
  });

  it("without a speech detector hears nothing, as before", async () => {
    const { engine, input, u } = await understand("spoken.mp4", undefined);
    expect(engine.plan(input).every((w) => w.kind === "frames")).toBe(true);
    expect(u.extent.speech).toBeUndefined();
    expect(u.limitations).toContain("no-speech-recognition");
  });
});
