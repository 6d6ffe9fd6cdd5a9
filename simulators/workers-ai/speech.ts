import { ALL_FORMATS, BufferSource, EncodedPacketSink, Input } from "mediabunny";
import { baseLanguage } from "../../src/lib/text/language";
import { knownFile, spokenCues } from "../known-media";
import { parseCut } from "../media";
import { sourceCaptions } from "./captions";
import { packetSounds, type Stretch, secondsWithin, soundingStretches } from "./voice";

/** An error as the binding throws it: the internal code leads the message (platform/errors). */
export function aiError(code: number, status: number, message: string): Error {
  return Object.assign(new Error(`${code}: ${message}`), { code, status });
}

// Silero VAD's shortest speech (get_speech_timestamps, min_speech_duration_ms = 250): less
// sound than this under a cue is not heard as speech.
const MIN_SPEECH_SECONDS = 0.25;

/** The cut's duration, its comment tag, and where its audio holds sound. */
async function readCut(bytes: Uint8Array) {
  const input = new Input({ formats: ALL_FORMATS, source: new BufferSource(bytes) });
  try {
    const track = await input.getPrimaryAudioTrack().catch(() => null);
    if (!track) throw aiError(5004, 400, "Invalid data: the audio cannot be decoded");
    const packets: { timestamp: number; duration: number; sounds: boolean }[] = [];
    for await (const packet of new EncodedPacketSink(track).packets()) {
      const { timestamp, duration } = packet;
      packets.push({ timestamp, duration, sounds: packetSounds(track.codec, packet) });
    }
    return {
      duration: await input.computeDuration(),
      cut: parseCut((await input.getMetadataTags()).comment),
      sounding: soundingStretches(packets),
    };
  } finally {
    input.dispose();
  }
}

/**
 * Whisper without a model: it hears the cues of the source's first caption track (or, for a
 * file the simulators know, what its maker wrote down it says) where the audio it is sent holds
 * sound under them (at least 250 ms), and nothing where the audio is silent. Without `language`
 * it transcribes as English, the documented default (the cue text as it is, reported `en`);
 * with one, it reports that language. It refuses audio with sound of any other source: it
 * cannot know what was said.
 */
export async function transcribe(bucket: R2Bucket, inputs: unknown): Promise<unknown> {
  const request = (inputs ?? {}) as { audio?: unknown; language?: unknown };
  if (typeof request.audio !== "string" || request.audio === "")
    throw aiError(3003, 400, "Request is missing headers or body: audio");
  if (request.language !== undefined && typeof request.language !== "string")
    throw aiError(3003, 400, "language must be a string");
  const { duration, cut, sounding } = await readCut(decodeBase64(request.audio));
  const language = request.language ? baseLanguage(request.language) : "en";
  if (sounding.length === 0) return reply([], language, duration, sounding);
  const captions = cut ? await heardFrom(bucket, cut.cut_of) : null;
  if (!cut || !captions || cut.start >= captions.until)
    throw aiError(
      3003,
      400,
      "the simulated speech recognition hears only a source's captions, and this audio has none",
    );
  const from = cut.start;
  const segments = captions.cues
    .map((c) => ({ start: Math.max(0, c.start - from), end: Math.min(duration, c.end - from), c }))
    .filter((s) => s.end > s.start && secondsWithin(sounding, s.start, s.end) >= MIN_SPEECH_SECONDS)
    .map((s) => ({
      start: round(s.start),
      end: round(s.end),
      text: ` ${s.c.text.replace(/\s+/g, " ").trim()}`,
    }));
  return reply(segments, language, duration, sounding);
}

/** What the source says: its captions, else what is known of the file; null when neither. */
async function heardFrom(bucket: R2Bucket, key: string) {
  const captions = await sourceCaptions(bucket, key);
  if (captions) return captions;
  const known = await knownFile(bucket, key);
  return known ? spokenCues(known) : null;
}

function reply(
  segments: { start: number; end: number; text: string }[],
  language: string,
  duration: number,
  sounding: Stretch[],
) {
  const text = segments
    .map((s) => s.text)
    .join("")
    .trim();
  const heard = segments.reduce((sum, s) => sum + secondsWithin(sounding, s.start, s.end), 0);
  return {
    text,
    word_count: text === "" ? 0 : text.split(/\s+/).length,
    segments,
    // A language passed, or the default, is forced: faster-whisper reports probability 1.
    transcription_info: {
      language,
      language_probability: 1,
      duration,
      duration_after_vad: round(heard),
    },
    vtt: "WEBVTT\n",
  };
}

/** The bytes of a base64 input, refused as the platform refuses bad base64. */
export function decodeBase64(value: string): Uint8Array {
  try {
    return Uint8Array.from(atob(value), (c) => c.charCodeAt(0));
  } catch {
    throw aiError(5004, 400, "Invalid data type for base64 input");
  }
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
