import { ALL_FORMATS, BufferSource, Input } from "mediabunny";
import type {
  MediaBindingLike,
  MediaOutputLike,
  MediaResultLike,
  MediaTransformerLike,
} from "../../src/env";
import { type Broken, NOTHING_BROKEN } from "../broken";
import { type Faults, simulatedLatency } from "../faults";
import { frameJpeg } from "./jpeg";

/**
 * The documented limits of Media Transformations (developers.cloudflare.com/stream/
 * transform-videos and its bindings page): input under 100 MB (40 MB in older pages), width
 * and height 10–2,000 px, `time` 0–30 s, `duration` 1–60 s, frames as JPEG or PNG.
 */
export const MEDIA_LIMITS = {
  maxInputBytes: 100 * 1000 * 1000,
  minPixels: 10,
  maxPixels: 2000,
  maxTimeSeconds: 30,
  minDurationSeconds: 1,
  maxDurationSeconds: 60,
} as const;

/**
 * Video codecs whose frames the simulator extracts. The docs test MP4 with H.264 only ("other
 * formats may work but are untested"); VP8 and VP9 are taken too, so WebM uploads can be
 * worked here, and HEVC and AV1 are refused as unsupported input, so the service's handling of
 * a codec the platform refuses is exercised. Which the platform decodes, `npm run trial` finds.
 */
export const SIMULATED_VIDEO_CODECS: ReadonlySet<string> = new Set(["avc", "vp8", "vp9"]);

/**
 * Images' usage-limit refusal (images/reference/troubleshooting: 9422, "rejected because the
 * usage limit was reached"); Media Transformations shares its subscription and usage metrics.
 */
export const MEDIA_QUOTA_CODE = 9422;

/** The binding's error: a message and a numeric code (HTTP-like here). */
export class SimulatedMediaError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(`MediaError ${code}: ${message}`);
    this.name = "MediaError";
  }
}

/**
 * Media Transformations without an account. It enforces the documented limits and checks
 * that the input is a real video of a codec it takes, but it cannot decode pictures: a frame
 * comes back as a tiny grey JPEG whose comment names the frame (the cut's source and the
 * source time), so the simulated vision model can tell which frame it is looking at. Broken
 * (`SIMULATE_BROKEN=media`), it refuses every input; out of quota (`media:quota`), `input()`
 * throws, where the binding's docs say account limits are thrown.
 */
export class SimulatedMedia implements MediaBindingLike {
  constructor(
    private readonly faults: Faults,
    private readonly broken: Broken = NOTHING_BROKEN,
  ) {}

  input(media: ReadableStream<Uint8Array>): MediaTransformerLike {
    if (this.broken.get("media") === "quota")
      throw new SimulatedMediaError(
        MEDIA_QUOTA_CODE,
        "The transformation request is rejected because the usage limit was reached (simulated: SIMULATE_BROKEN)",
      );
    const output = (transform: MediaTransformationInputOptions | null): MediaOutputLike => ({
      output: (options) => this.result(media, transform, options),
    });
    return { ...output(null), transform: (options) => output(options) };
  }

  private result(
    media: ReadableStream<Uint8Array>,
    transform: MediaTransformationInputOptions | null,
    options: MediaTransformationOutputOptions,
  ): MediaResultLike {
    let answer: Promise<Response> | undefined;
    return {
      response: () => {
        answer ??= this.answer(media, transform, options);
        return answer;
      },
    };
  }

  private async answer(
    media: ReadableStream<Uint8Array>,
    transform: MediaTransformationInputOptions | null,
    options: MediaTransformationOutputOptions,
  ): Promise<Response> {
    await simulatedLatency(this.faults, "media");
    checkTransform(transform);
    const time = seconds(options.time ?? "0s", "time");
    if (time < 0 || time > MEDIA_LIMITS.maxTimeSeconds)
      throw new SimulatedMediaError(400, `time must be 0-${MEDIA_LIMITS.maxTimeSeconds}s`);
    if (options.duration !== undefined) {
      const duration = seconds(options.duration, "duration");
      if (duration < MEDIA_LIMITS.minDurationSeconds || duration > MEDIA_LIMITS.maxDurationSeconds)
        throw new SimulatedMediaError(400, "duration must be 1-60s");
    }
    const bytes = await readBounded(media);
    if (this.broken.get("media") === "refuse")
      throw new SimulatedMediaError(415, "unsupported input (simulated: SIMULATE_BROKEN=media)");
    if (this.faults.fails("media"))
      throw new SimulatedMediaError(503, "simulated transient failure: try again");
    if (options.mode !== "frame")
      throw new SimulatedMediaError(501, `mode ${options.mode ?? "video"} is not simulated`);
    if (options.format !== undefined && options.format !== "jpg" && options.format !== "png")
      throw new SimulatedMediaError(400, "format must be jpg or png for frames");
    const label = await frameLabel(bytes, time);
    return new Response(frameJpeg(JSON.stringify(label)), {
      headers: { "content-type": "image/jpeg" },
    });
  }
}

function checkTransform(transform: MediaTransformationInputOptions | null): void {
  for (const [name, value] of Object.entries({
    width: transform?.width,
    height: transform?.height,
  })) {
    if (value === undefined) continue;
    if (
      !Number.isInteger(value) ||
      value < MEDIA_LIMITS.minPixels ||
      value > MEDIA_LIMITS.maxPixels
    )
      throw new SimulatedMediaError(
        400,
        `${name} must be ${MEDIA_LIMITS.minPixels}-${MEDIA_LIMITS.maxPixels}`,
      );
  }
}

/** `5s`, `2m`, `1.5s`: the time strings the binding takes. */
function seconds(value: string, name: string): number {
  const match = /^(\d+(?:\.\d+)?)(s|m)$/.exec(value);
  if (!match) throw new SimulatedMediaError(400, `${name} must be a time string like 5s or 2m`);
  return Number(match[1]) * (match[2] === "m" ? 60 : 1);
}

/** Reads the input, refusing it once it reaches the documented size limit. */
async function readBounded(media: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = media.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total >= MEDIA_LIMITS.maxInputBytes) {
      await reader.cancel();
      throw new SimulatedMediaError(413, "input must be smaller than 100 MB");
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/** What the frame is: the input must be a video reaching `time`; its comment names its source. */
async function frameLabel(
  bytes: Uint8Array,
  time: number,
): Promise<{ cut_of: string | null; time: number }> {
  const input = new Input({ formats: ALL_FORMATS, source: new BufferSource(bytes) });
  try {
    const video = await input.getPrimaryVideoTrack().catch(() => null);
    if (!video) throw new SimulatedMediaError(415, "the input has no video track");
    const codec = await video.getCodec();
    if (!codec || !SIMULATED_VIDEO_CODECS.has(codec))
      throw new SimulatedMediaError(415, `unsupported input: ${codec ?? "unknown"} video`);
    const duration = await input.computeDuration();
    if (time > duration + 0.5)
      throw new SimulatedMediaError(400, `time ${time}s is past the input's end (${duration}s)`);
    const comment = (await input.getMetadataTags()).comment;
    const cut = parseCut(comment);
    return { cut_of: cut?.cut_of ?? null, time: (cut?.start ?? 0) + time };
  } finally {
    input.dispose();
  }
}

/** The source and start a cut names in its comment tag, when it names them. */
export function parseCut(comment: string | undefined): { cut_of: string; start: number } | null {
  if (!comment) return null;
  try {
    const value = JSON.parse(comment) as { cut_of?: unknown; start?: unknown };
    return typeof value.cut_of === "string" && typeof value.start === "number"
      ? { cut_of: value.cut_of, start: value.start }
      : null;
  } catch {
    return null;
  }
}
