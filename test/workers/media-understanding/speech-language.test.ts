import { describe, expect, it } from "vitest";
import { probeMedia } from "../../../src/media/probe";
import { speechLanguage } from "../../../src/media-understanding/speech-language";
import { pacedAi } from "../../../src/ports/ai/model-calls";
import { parseWhisper } from "../../../src/ports/media-understanding/model-outputs";
import { understandWhole } from "../../../src/ports/media-understanding/port";
import { WorkersAiMediaUnderstanding } from "../../../src/ports/media-understanding/workers-ai";
import { instantCalls } from "../../helpers/instant-calls";
import { fixtureBytes, type MediaFixture } from "../../helpers/media-fixtures";
import { bytesSource } from "../../helpers/media-sources";
import { probe, track, understandInput } from "./probes";
import { RecordingAi, RecordingMedia, realisticAnswer } from "./recording-fakes";

const WHISPER = "@cf/openai/whisper-large-v3-turbo";
const GERMAN = "Die Schicht beginnt um sechs Uhr und alle tragen Helme auf dem Gelände.";
const chunk = { start: 30, length: 30 };
const segment = { start: 1, end: 4, text: " Guten Morgen" };

async function probeOfFixture(name: MediaFixture) {
  return probeMedia(bytesSource(fixtureBytes(name)), {
    filename: name,
    contentType: "video/mp4",
  });
}

describe("the language Whisper is told", () => {
  it("is the caption tracks' language, by tag or detected from their text", async () => {
    expect(speechLanguage(await probeOfFixture("german-captions.mp4"))).toBe("de");
    expect(speechLanguage(await probeOfFixture("talk.mp4"))).toBe("en");
    expect(speechLanguage(probe({ textTracks: [track(0, [[1, 5, GERMAN]])] }))).toBe("de");
  });

  it("is none when the tracks disagree, the language is unknown, or there are no captions", () => {
    const english = "Forklift operators must wear high visibility vests at all times.";
    const twoLanguages = [track(0, [[1, 5, english]], "eng"), track(1, [[1, 5, GERMAN]], "ger")];
    expect(speechLanguage(probe({ textTracks: twoLanguages }))).toBeNull();
    expect(speechLanguage(probe({ textTracks: [track(0, [[1, 2, "Ja."]])] }))).toBeNull();
    expect(speechLanguage(probe({ textTracks: [track(0, [[1, 2, "Hi"]], "tlh")] }))).toBeNull();
    expect(speechLanguage(probe())).toBeNull();
  });
});

describe("the language a transcript is said to be in", () => {
  it("is the language passed, whatever the reply names", () => {
    const reply = { text: "Guten Morgen", segments: [segment] };
    const parsed = parseWhisper(
      { ...reply, transcription_info: { language: "de", language_probability: 1 } },
      chunk,
      "de",
    );
    expect(parsed.language).toBe("de");
    expect(parsed.spans.map((s) => s.source)).toEqual(["whisper:de"]);
  });

  it("is the detected language only when the reply shows a detection, never English by default", () => {
    const reply = (language: string, language_probability?: number) => ({
      text: "Guten Morgen",
      segments: [segment],
      transcription_info: { language, language_probability },
    });
    expect(parseWhisper(reply("de", 0.94), chunk).language).toBe("de");
    // Probability 1 is how a forced language is reported: a default of English is no detection.
    const forced = parseWhisper(reply("en", 1), chunk);
    expect(forced.language).toBeNull();
    expect(forced.spans.map((s) => s.source)).toEqual(["whisper"]);
    expect(parseWhisper(reply("en"), chunk).language).toBeNull();
    expect(parseWhisper(reply("nl", 0.31), chunk).language).toBeNull();
  });

  it("is none for audio in which no speech was recognised", () => {
    const silence = {
      text: "",
      segments: [],
      transcription_info: { language: "de", language_probability: 1 },
    };
    expect(parseWhisper(silence, chunk, "de")).toEqual({
      spans: [],
      language: null,
      malformed: false,
    });
  });
});

describe("WorkersAiMediaUnderstanding and language", () => {
  const understand = async (name: MediaFixture) => {
    const ai = new RecordingAi(realisticAnswer);
    const instant = instantCalls();
    const engine = new WorkersAiMediaUnderstanding({
      ai: pacedAi(ai, instant),
      media: new RecordingMedia(),
      frames: { put: async () => undefined, get: async () => null },
    });
    const source = bytesSource(fixtureBytes(name));
    const p = await probeMedia(source, { filename: name, contentType: "video/mp4" });
    const u = await understandWhole(engine, understandInput(p, { filename: name, source }));
    return { ai, u };
  };

  it("tells Whisper a German-captioned video is German, and records its speech as German", async () => {
    const { ai, u } = await understand("german-captions.mp4");
    const calls = ai.callsTo(WHISPER);
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) expect(call.inputs).toMatchObject({ language: "de" });
    const speech = u.extent.transcript.filter((t) => t.origin === "speech");
    expect(speech.map((t) => [t.source, t.language])).toEqual([["whisper:de", "de"]]);
    expect(u.tags).toContain("lang:de");
    expect(u.tags).not.toContain("lang:en");
  });
});
