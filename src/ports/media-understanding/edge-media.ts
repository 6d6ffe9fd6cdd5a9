import type { MediaBindingLike } from "../../env";
import type { FrameImage } from "./assemble";
import type { TimeRange } from "./segmenter";

/**
 * What the edge can reach. Defaults follow the Media Transformations docs at the time of
 * writing (input < 100 MB, `time` 0–30 s, `duration` 1–60 s); raise them when Cloudflare does.
 */
export interface EdgeLimits {
  maxInputBytes: number;
  /** Largest `time` the binding accepts for frames and audio. */
  maxSeekSeconds: number;
  /** Largest `duration` the binding accepts for audio. */
  maxClipSeconds: number;
  /** Audio is sent to speech recognition in chunks of this length. */
  audioChunkSeconds: number;
  /** Frames are scaled down to fit this box before a vision model sees them. */
  frameBoxPixels: number;
  /** Frames per vision request; more than one is unverified on Workers AI, so 1 by default. */
  framesPerVisionCall: number;
  /** Media and model calls in flight at once. */
  concurrency: number;
}

/** The limits used unless the consumer passes others. */
export const DEFAULT_EDGE_LIMITS: EdgeLimits = {
  maxInputBytes: 100 * 1000 * 1000,
  maxSeekSeconds: 30,
  maxClipSeconds: 60,
  audioChunkSeconds: 30,
  frameBoxPixels: 640,
  framesPerVisionCall: 1,
  concurrency: 3,
};

/** One piece of audio to extract and transcribe; whole seconds, as the binding takes them. */
export interface AudioChunk {
  start: number;
  length: number;
}

/**
 * Audio chunks from 0 while the start is reachable; the last reachable chunk stretches to the
 * longest clip allowed. `reach` is where reachable audio ends.
 */
export function planAudioChunks(
  duration: number,
  limits: EdgeLimits,
): { chunks: AudioChunk[]; reach: number } {
  const chunks: AudioChunk[] = [];
  const step = Math.max(1, Math.floor(Math.min(limits.audioChunkSeconds, limits.maxClipSeconds)));
  for (let start = 0; start < duration && start <= limits.maxSeekSeconds; start += step) {
    const lastReachable = start + step > limits.maxSeekSeconds;
    const wanted = Math.min(lastReachable ? limits.maxClipSeconds : step, duration - start);
    chunks.push({ start, length: Math.max(1, Math.ceil(wanted)) });
  }
  const last = chunks.at(-1);
  return { chunks, reach: last ? Math.min(duration, last.start + last.length) : 0 };
}

/** The frame sampled for a segment: its first whole second (the binding takes `Ns`). */
export function frameTimeFor(range: TimeRange): number {
  const t = Math.ceil(range.start);
  return t < range.end ? t : Math.floor(range.start);
}

/** Opens the stored video as a fresh stream; each binding call consumes one. */
export type SourceOpener = () => Promise<ReadableStream<Uint8Array> | null>;

/** Thrown when the stored object is gone: no later media call can succeed. */
export class SourceMissingError extends Error {}

/** A still frame at `time` seconds, scaled to fit the box, as JPEG. */
export async function extractFrame(
  media: MediaBindingLike,
  open: SourceOpener,
  time: number,
  limits: EdgeLimits,
): Promise<FrameImage> {
  const box = limits.frameBoxPixels;
  const res = await withSource(open, (body) =>
    media
      .input(body)
      .transform({ width: box, height: box, fit: "scale-down" })
      .output({ mode: "frame", time: `${time}s`, format: "jpg" })
      .response(),
  );
  const bytes = await bodyBytes(res);
  const contentType = res.headers.get("content-type")?.split(";")[0]?.trim() || "image/jpeg";
  if (!contentType.startsWith("image/")) throw new Error(`frame is ${contentType}`);
  return { time, contentType, bytes };
}

/** The audio of one chunk as M4A bytes. */
export async function extractAudio(
  media: MediaBindingLike,
  open: SourceOpener,
  chunk: AudioChunk,
): Promise<Uint8Array> {
  const res = await withSource(open, (body) =>
    media
      .input(body)
      .output({
        mode: "audio",
        time: `${chunk.start}s`,
        duration: `${chunk.length}s`,
        format: "m4a",
      })
      .response(),
  );
  return bodyBytes(res);
}

async function withSource<T>(
  open: SourceOpener,
  use: (body: ReadableStream<Uint8Array>) => Promise<T>,
): Promise<T> {
  const body = await open();
  if (!body) throw new SourceMissingError("the stored video is missing");
  try {
    return await use(body);
  } finally {
    // A call that failed before reading leaves the R2 stream open.
    if (!body.locked) await body.cancel().catch(() => undefined);
  }
}

async function bodyBytes(res: Response): Promise<Uint8Array> {
  if (!res.ok) throw new Error(`media transformation answered ${res.status}`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (bytes.byteLength === 0) throw new Error("media transformation returned no bytes");
  return bytes;
}

/** Base64 without building one huge string argument list. */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** Maps with at most `limit` calls in flight; results keep the input order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  // One shared iterator: each worker pulls the next item when it is free.
  const queue = items.entries();
  const worker = async () => {
    for (const [i, item] of queue) results[i] = await fn(item, i);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}
