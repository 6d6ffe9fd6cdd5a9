import type { MediaBindingLike, MediaOutputLike, MediaTransformerLike } from "../../../src/env";
import type { AiLike } from "../../../src/ports/media-understanding/model-outputs";

/** One call to the fake media binding, as the adapter made it. */
export interface MediaCall {
  transform: MediaTransformationInputOptions | null;
  output: MediaTransformationOutputOptions;
  /** Bytes the fake read from the input stream (the stored video). */
  inputBytes: number;
}

/**
 * Stands in for Media Transformations: records each call and answers with bytes that name
 * what was asked (`FRAME@12s`, `AUDIO@30s+15s`), so later assertions can trace them.
 */
export class RecordingMedia implements MediaBindingLike {
  readonly calls: MediaCall[] = [];
  /** Throws like the binding's `MediaError` for frames at these times (seconds). */
  failFramesAt = new Set<number>();

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
    const inputBytes = (await new Response(stream).arrayBuffer()).byteLength;
    this.calls.push({ transform, output, inputBytes });
    if (output.mode === "frame") {
      if (this.failFramesAt.has(Number.parseFloat(output.time ?? "0"))) {
        throw Object.assign(new Error("MediaError: could not seek"), { code: 9409 });
      }
      return new Response(`FRAME@${output.time}`, { headers: { "content-type": "image/jpeg" } });
    }
    const body = `AUDIO@${output.time}+${output.duration}`;
    return new Response(body, { headers: { "content-type": "audio/mp4" } });
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
      return this.respond(model, inputs);
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

/** Whisper: two timed segments per chunk; vision: a JSON object per image. */
export function realisticAnswer(model: string, inputs: unknown): unknown {
  if (model === "@cf/openai/whisper-large-v3-turbo") {
    const audio = decodeBase64((inputs as { audio: string }).audio);
    const start = Number.parseFloat(audio.slice("AUDIO@".length));
    return {
      text: `words at ${start} more words at ${start}`,
      word_count: 8,
      transcription_info: { language: "en", language_probability: 0.98, duration: 30 },
      segments: [
        { start: 1, end: 4, text: ` words at ${start}`, no_speech_prob: 0.01 },
        { start: 6, end: 9.5, text: ` more words at ${start}`, no_speech_prob: 0.02 },
      ],
      vtt: "WEBVTT",
    };
  }
  const images = imageUris(inputs).map((uri, i) => {
    const time = decodeBase64(uri).slice("FRAME@".length);
    return {
      image: i + 1,
      description: `A cook slices tomatoes on a wooden board (${time})`,
      tags: ["Kitchen", "tomato", "knife"],
      visible_text: time === "0s" ? ["FRESH PASTA"] : [],
    };
  });
  return { response: JSON.stringify({ images }), usage: { total_tokens: 900 } };
}
