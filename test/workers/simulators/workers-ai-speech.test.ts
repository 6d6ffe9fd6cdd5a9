import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { frameJpeg } from "../../../simulators/media/jpeg";
import { SimulatedAi } from "../../../simulators/workers-ai";
import { openCutter } from "../../../src/media/cut";
import { visionInput } from "../../../src/ports/media-understanding/model-outputs";
import { fixtureBytes, type MediaFixture } from "../../helpers/media-fixtures";
import { bytesSource } from "../../helpers/media-sources";
import { visionOut, whisperOutput } from "../contracts/model-validators";

const WHISPER = "@cf/openai/whisper-large-v3-turbo";
const VISION = "@cf/meta/llama-4-scout-17b-16e-instruct";
const calm = { delay: async () => undefined, fails: () => false };

function simulator(vision: "refuse" | "describe" = "refuse") {
  return new SimulatedAi({ bucket: env.MEDIA_BUCKET, faults: calm, vision });
}

interface Heard {
  text: string;
  segments: { start: number; end: number; text: string }[];
  transcription_info: {
    language: string;
    language_probability: number;
    duration: number;
    duration_after_vad: number;
  };
}

/** Stores a source as the service does and asks the simulated Whisper about a cut of it. */
async function hear(fixture: MediaFixture, start: number, end: number, language?: string) {
  const key = `videos/vid_speech_${fixture.replace(/\W/g, "")}/source`;
  const bytes = fixtureBytes(fixture);
  await env.MEDIA_BUCKET.put(key, bytes);
  const cutter = openCutter(bytesSource(bytes), key);
  try {
    const cut = await cutter.audio(start, end);
    if (!cut) throw new Error("no audio");
    const audio = btoa(String.fromCharCode(...cut.bytes));
    const out = (await simulator().run(WHISPER, {
      audio,
      ...(language ? { language } : {}),
    })) as Heard;
    expect(whisperOutput(out)).toEqual([]);
    return out;
  } finally {
    cutter.dispose();
  }
}

describe("the simulated Whisper hears only where the audio holds sound", () => {
  it("hears the cues spoken aloud and not the one over silence", async () => {
    const out = await hear("voice-speech.mp4", 0, 12, "en");
    expect(out.segments.map((s) => s.text.trim())).toEqual([
      "The loading dock closes at six.",
      "Wear a vest near the forklifts.",
    ]);
    expect(out.text).not.toContain("Sign out at the gate");
    // What its VAD kept: the sound under the heard cues (espeak-ng speaks about 2 s of each).
    expect(out.transcription_info.duration_after_vad).toBeGreaterThan(3);
    expect(out.transcription_info.duration_after_vad).toBeLessThan(6);
  });

  it("hears nothing in silence, though the source has captions there", async () => {
    const out = await hear("voice-silence.mp4", 0, 12, "en");
    expect(out).toMatchObject({ text: "", segments: [] });
    expect(out.transcription_info.duration_after_vad).toBe(0);
  });

  it("cannot tell white noise or a steady tone from speech: it hears the cues over both", async () => {
    for (const fixture of ["voice-noise.mp4", "voice-tone.mp4"] as const) {
      const out = await hear(fixture, 0, 12, "en");
      expect(out.segments, fixture).toHaveLength(3);
    }
  });
});

describe("the simulated Whisper's language", () => {
  it("is the language passed", async () => {
    const out = await hear("german-speech.mp4", 0, 12, "de");
    expect(out.transcription_info).toMatchObject({ language: "de", language_probability: 1 });
    expect(out.text).toContain("Das Lager schließt um sechs Uhr.");
  });

  it("is English when none is passed, the documented default, forced with probability 1", async () => {
    const out = await hear("german-speech.mp4", 0, 12);
    expect(out.transcription_info).toMatchObject({ language: "en", language_probability: 1 });
    // The cue text stands in for what the real model would write when forced to English.
    expect(out.text).toContain("Das Lager schließt um sechs Uhr.");
  });
});

describe("the simulated vision model's usage", () => {
  it("counts tokens of the prompt, its images and the answer, not a constant", async () => {
    const uri = (time: number) => {
      const jpeg = frameJpeg(JSON.stringify({ cut_of: "videos/x/source", time }));
      return `data:image/jpeg;base64,${btoa(String.fromCharCode(...jpeg))}`;
    };
    type Described = {
      response: string;
      usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
    };
    const one = (await simulator("describe").run(VISION, visionInput([uri(2)]))) as Described;
    const two = (await simulator("describe").run(
      VISION,
      visionInput([uri(2), uri(6)]),
    )) as Described;
    expect(visionOut(one)).toEqual([]);
    expect(one.usage.completion_tokens).toBe(Math.ceil(one.response.length / 4));
    expect(one.usage.total_tokens).toBe(one.usage.prompt_tokens + one.usage.completion_tokens);
    // A second image adds its tile (144 tokens) and a second description.
    expect(two.usage.prompt_tokens).toBeGreaterThanOrEqual(one.usage.prompt_tokens + 144);
    expect(two.usage.completion_tokens).toBeGreaterThan(one.usage.completion_tokens);
  });
});
