import { ALL_FORMATS, BufferSource, EncodedPacketSink, Input } from "mediabunny";
import type { MediaBindingLike, MediaOutputLike, MediaTransformerLike } from "../../../src/env";
import type { AiLike } from "../../../src/ports/media-understanding/model-outputs";

/** One call to the fake media binding, as the adapter made it. */
export interface MediaCall {
  transform: MediaTransformationInputOptions | null;
  output: MediaTransformationOutputOptions;
  /** Bytes the fake read from the input stream (the cut it was given). */
  inputBytes: number;
  /** Packets of the input's video track, read by parsing it: a cut must be a real file. */
  inputPackets: number;
}

/** The documented limits of the binding (stream/transform-videos): input and `time`. */
const MAX_INPUT_BYTES = 100 * 1000 * 1000;
const MAX_TIME_SECONDS = 30;

/**
 * Stands in for Media Transformations: parses each input (it must be a real video file within
 * the documented size), refuses a `time` past 30 s like the binding, records the call and
 * answers bytes that name what was asked (`FRAME@3s/12`: time and packets in the input).
 */
export class RecordingMedia implements MediaBindingLike {
  readonly calls: MediaCall[] = [];
  /** Refuses this many frame calls for good, as the binding's `MediaError` 415 (HTTP-like). */
  failFrames = 0;
  /** Calls being answered right now, and the most there were at once. */
  inFlight = 0;
  maxInFlight = 0;

  input(stream: ReadableStream<Uint8Array>): MediaTransformerLike {
    const out = (transform: MediaTransformationInputOptions | null): MediaOutputLike => ({
      output: (output) => ({ response: () => this.answer(stream, transform, output) }),
    });
    return { ...out(null), transform: (t) => out(t) };
  }

  private async answer(
    stream: ReadableStream<Uint8Array>,
    transform: MediaTransformationInputOptions | null,
    output: MediaTransformationOutputOptions,
  ): Promise<Response> {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      // Like the edge, it answers a while later: calls in flight overlap.
      await new Promise((resolve) => setTimeout(resolve, 5));
      return await this.transform(stream, transform, output);
    } finally {
      this.inFlight--;
    }
  }

  private async transform(
    stream: ReadableStream<Uint8Array>,
    transform: MediaTransformationInputOptions | null,
    output: MediaTransformationOutputOptions,
  ): Promise<Response> {
    const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
    if (bytes.byteLength >= MAX_INPUT_BYTES) throw mediaError(413, "input too large");
    const seconds = Number.parseFloat(output.time ?? "0");
    if (!(seconds >= 0 && seconds <= MAX_TIME_SECONDS)) throw mediaError(400, "time out of range");
    const inputPackets = await videoPackets(bytes);
    this.calls.push({ transform, output, inputBytes: bytes.byteLength, inputPackets });
    if (output.mode === "frame" && this.failFrames > 0) {
      this.failFrames--;
      throw mediaError(415, "unsupported input");
    }
    return new Response(`FRAME@${output.time}/${inputPackets}`, {
      headers: { "content-type": "image/jpeg" },
    });
  }
}

function mediaError(code: number, message: string): Error {
  return Object.assign(new Error(`MediaError: ${message}`), { code });
}

/** Packets in a file's video track (0 when it has none); throws when it is not a video file. */
async function videoPackets(bytes: Uint8Array): Promise<number> {
  const input = new Input({ formats: ALL_FORMATS, source: new BufferSource(bytes) });
  try {
    const track = await input.getPrimaryVideoTrack();
    if (!track) return 0;
    let count = 0;
    for await (const _ of new EncodedPacketSink(track).packets()) count++;
    return count;
  } finally {
    input.dispose();
  }
}

/** Duration in seconds and track kinds of an audio file the adapter sent to Whisper. */
export async function audioFacts(
  base64: string,
): Promise<{ duration: number; audio: boolean; video: boolean; bytes: number }> {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const input = new Input({ formats: ALL_FORMATS, source: new BufferSource(bytes) });
  try {
    return {
      duration: await input.computeDuration(),
      audio: (await input.getPrimaryAudioTrack()) !== null,
      video: (await input.getPrimaryVideoTrack()) !== null,
      bytes: bytes.byteLength,
    };
  } finally {
    input.dispose();
  }
}

/** One call to the fake Workers AI binding. */
export interface AiCall {
  model: string;
  inputs: unknown;
}

type Responder = (model: string, inputs: unknown) => unknown;

/**
 * Stands in for `env.AI`: records every call and answers like the real models, from what
 * the fake media binding produced (Whisper segments per chunk, one JSON entry per image).
 */
export class RecordingAi implements AiLike {
  readonly calls: AiCall[] = [];
  inFlight = 0;
  maxInFlight = 0;

  constructor(private readonly respond: Responder = realisticAnswer) {}

  async run(model: string, inputs: unknown): Promise<unknown> {
    this.calls.push({ model, inputs });
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return await this.respond(model, inputs);
    } finally {
      this.inFlight--;
    }
  }

  /** Calls to one model. */
  callsTo(model: string): AiCall[] {
    return this.calls.filter((c) => c.model === model);
  }
}

/** Decodes what the fake media returned, from a base64 string or a data URI. */
export function decodeBase64(value: string): string {
  return atob(value.replace(/^data:[^,]*,/, ""));
}

/** The `data:` URIs of a vision request. */
export function imageUris(inputs: unknown): string[] {
  const messages = (inputs as { messages: { content: unknown }[] }).messages;
  return messages.flatMap((m) =>
    Array.isArray(m.content)
      ? m.content.flatMap((p: { image_url?: { url: string } }) =>
          p.image_url ? [p.image_url.url] : [],
        )
      : [],
  );
}

/**
 * Whisper: two timed segments per window, inside the audio it was sent (parsed, so a cut that
 * is not a real audio file fails); vision: a JSON object per image, naming the frame asked for.
 */
export async function realisticAnswer(model: string, inputs: unknown): Promise<unknown> {
  if (model === "@cf/openai/whisper-large-v3-turbo") {
    const { duration } = await audioFacts((inputs as { audio: string }).audio);
    const within = (t: number) => Math.min(t, duration);
    return {
      text: `words in ${Math.round(duration)} seconds`,
      word_count: 5,
      transcription_info: { language: "en", language_probability: 0.98, duration },
      segments: [
        { start: within(1), end: within(4), text: " words heard", no_speech_prob: 0.01 },
        { start: within(6), end: within(9.5), text: " more words heard", no_speech_prob: 0.02 },
      ],
      vtt: "WEBVTT",
    };
  }
  const images = imageUris(inputs).map((uri, i) => {
    const frame = decodeBase64(uri).slice("FRAME@".length);
    return {
      image: i + 1,
      description: `A cook slices tomatoes on a wooden board (${frame})`,
      tags: ["Kitchen", "tomato", "knife"],
      visible_text: frame.startsWith("0s") ? ["FRESH PASTA"] : [],
    };
  });
  return { response: JSON.stringify({ images }), usage: { total_tokens: 900 } };
}
