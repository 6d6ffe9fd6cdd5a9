import type { MediaBindingLike } from "../../env";
import type { FrameImage } from "../../media-understanding/assemble";

/** One stretch of audio sent to speech recognition, in whole or fractional seconds. */
export interface AudioChunk {
  start: number;
  length: number;
}

/**
 * A still frame of a cut, `offset` whole seconds into it, scaled to fit `box` pixels, as
 * JPEG. The cut is small (the key frame and what follows it up to the wanted frame), so it
 * is well inside the binding's input size and `time` limits whatever the source's size.
 */
export async function extractFrame(
  media: MediaBindingLike,
  cut: { bytes: Uint8Array; offset: number; time: number },
  box: number,
): Promise<FrameImage> {
  const res = await media
    .input(new Response(cut.bytes).body as ReadableStream<Uint8Array>)
    .transform({ width: box, height: box, fit: "scale-down" })
    .output({ mode: "frame", time: `${cut.offset}s`, format: "jpg" })
    .response();
  if (!res.ok) throw new Error(`media transformation answered ${res.status}`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (bytes.byteLength === 0) throw new Error("media transformation returned no bytes");
  const contentType = res.headers.get("content-type")?.split(";")[0]?.trim() || "image/jpeg";
  if (!contentType.startsWith("image/")) throw new Error(`frame is ${contentType}`);
  return { time: cut.time, contentType, bytes };
}

/** Base64 without building one huge string argument list. */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/**
 * Maps with at most `limit` calls in flight; results keep the input order. After a call fails
 * no other starts, and the failure is thrown once the calls in flight have ended, so nothing
 * of the work outlives the map (a retry could otherwise pay for it a second time).
 */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  // Set by a worker: the type keeps TypeScript from taking it for null after the awaits.
  let failure = null as { error: unknown } | null;
  // One shared iterator: each worker pulls the next item when it is free.
  const queue = items.entries();
  const worker = async () => {
    for (const [i, item] of queue) {
      if (failure) return;
      try {
        results[i] = await fn(item, i);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failure) throw failure.error;
  return results;
}
