import type { RangeSource } from "../domain/media";
import { streamPieces } from "./stream-reader";

/** The part of an R2 bucket a range source uses: an `R2Bucket` fits, and so does a test fake. */
export interface R2RangeReader {
  get(
    key: string,
    options: { range: { offset: number; length: number } },
  ): Promise<{ arrayBuffer(): Promise<ArrayBuffer>; body?: ReadableStream<Uint8Array> } | null>;
}

/** Read-ahead and cache sizes of an R2 range source. */
export interface R2RangeSourceOptions {
  /** Small reads fetch the aligned window around them; default 256 KiB. */
  windowBytes?: number;
  /** Cached bytes never exceed this; default 4 MiB. */
  maxCacheBytes?: number;
}

interface CacheEntry {
  start: number;
  end: number;
  bytes: Promise<Uint8Array>;
  lastUsed: number;
}

/**
 * A RangeSource over an R2 object. Parsers read many small pieces (box and element headers,
 * text samples), so small reads fetch a whole aligned window and recent windows are kept in a
 * bounded cache; concurrent reads of one window share one `get`.
 */
export function r2RangeSource(
  bucket: R2RangeReader,
  key: string,
  size: number,
  options: R2RangeSourceOptions = {},
): RangeSource {
  const windowBytes = options.windowBytes ?? 256 * 1024;
  const maxCacheBytes = options.maxCacheBytes ?? 4 * 1024 * 1024;
  let entries: CacheEntry[] = [];
  let clock = 0;

  const getRange = async (offset: number, length: number) => {
    const object = await bucket.get(key, { range: { offset, length } });
    if (object === null) {
      throw new Error(`The stored object "${key}" is missing.`);
    }
    return object;
  };
  const fetchRange = async (offset: number, length: number): Promise<Uint8Array> =>
    new Uint8Array(await (await getRange(offset, length)).arrayBuffer());

  const remember = (entry: CacheEntry) => {
    entries.push(entry);
    let cached = entries.reduce((total, each) => total + (each.end - each.start), 0);
    // Oldest first, so the windows a parser is walking through right now stay.
    const byAge = [...entries].sort((a, b) => a.lastUsed - b.lastUsed);
    for (const old of byAge) {
      if (cached <= maxCacheBytes) break;
      entries = entries.filter((each) => each !== old);
      cached -= old.end - old.start;
    }
    // A failed fetch must not poison later reads of the same window.
    entry.bytes.catch(() => {
      entries = entries.filter((each) => each !== entry);
    });
  };

  return {
    size,
    async read(start, end) {
      const stop = Math.min(end, size);
      if (start >= stop) return new Uint8Array(0);
      const hit = entries.find((entry) => entry.start <= start && stop <= entry.end);
      if (hit) {
        hit.lastUsed = ++clock;
        return (await hit.bytes).slice(start - hit.start, stop - hit.start);
      }
      // Big reads (a whole moov, a cluster) are read exactly and not cached: they are read once.
      if (stop - start >= windowBytes) return fetchRange(start, stop - start);
      const windowStart = Math.floor(start / windowBytes) * windowBytes;
      const windowEnd = Math.min(
        size,
        Math.max(windowStart + windowBytes, Math.ceil(stop / windowBytes) * windowBytes),
      );
      const entry: CacheEntry = {
        start: windowStart,
        end: windowEnd,
        bytes: fetchRange(windowStart, windowEnd - windowStart),
        lastUsed: ++clock,
      };
      remember(entry);
      return (await entry.bytes).slice(start - windowStart, stop - windowStart);
    },
    // A whole-file pass: one get a stretch, its body taken a piece at a time and never cached.
    async *stream(start, end) {
      const stop = Math.min(end, size);
      if (start >= stop) return;
      const object = await getRange(start, stop - start);
      if (object.body === undefined) yield new Uint8Array(await object.arrayBuffer());
      else yield* streamPieces(object.body);
    },
  };
}
