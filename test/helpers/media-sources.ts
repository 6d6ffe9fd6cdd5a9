import type { RangeSource } from "../../src/domain/media";
import { r2RangeSource } from "../../src/media/r2-source";

/** A piece of a synthetic file: real bytes, or a run of zeros that is never allocated. */
export type FilePart = Uint8Array | { zeros: number };

/** No probe has any business reading this much at once; a read this big is a bug. */
const MAX_READ_BYTES = 64 * 1024 * 1024;

/** What went through a counting RangeSource. */
export interface ReadLog {
  calls: number;
  bytes: number;
  largestRead: number;
  ranges: [number, number][];
}

/** A RangeSource over bytes in memory; each read returns a fresh copy, as R2 would. */
export function bytesSource(bytes: Uint8Array): RangeSource {
  return {
    size: bytes.length,
    read: async (start, end) => bytes.slice(start, Math.min(end, bytes.length)),
  };
}

/**
 * Wraps a RangeSource and records every read, to assert how little a probe reads. A streamed
 * read counts once, with the bytes taken from it (a reader may stop early); its largest read
 * is its largest piece, since that is what is held at once.
 */
export function countingSource(source: RangeSource): RangeSource & { log: ReadLog } {
  const log: ReadLog = { calls: 0, bytes: 0, largestRead: 0, ranges: [] };
  const stream = source.stream?.bind(source);
  return {
    size: source.size,
    log,
    read: async (start, end) => {
      const bytes = await source.read(start, end);
      log.calls++;
      log.bytes += bytes.length;
      log.largestRead = Math.max(log.largestRead, bytes.length);
      log.ranges.push([start, start + bytes.length]);
      return bytes;
    },
    ...(stream && {
      async *stream(start: number, end: number) {
        log.calls++;
        const range: [number, number] = [start, start];
        log.ranges.push(range);
        for await (const piece of stream(start, end)) {
          log.bytes += piece.length;
          log.largestRead = Math.max(log.largestRead, piece.length);
          range[1] += piece.length;
          yield piece;
        }
      },
    }),
  };
}

/** The total size of a list of parts. */
export function partsSize(parts: FilePart[]): number {
  return parts.reduce((total, part) => total + partLength(part), 0);
}

/**
 * A RangeSource serving a file laid out from parts, allocating only what each read asks for,
 * so a 2 GiB (or 5 GiB) file costs nothing until someone reads its middle.
 */
export function partsSource(parts: FilePart[]): RangeSource {
  const size = partsSize(parts);
  return {
    size,
    read: async (start, end) => {
      const stop = Math.min(end, size);
      if (stop - start > MAX_READ_BYTES) {
        throw new Error(`A read of ${stop - start} bytes at ${start}: the probe reads too much.`);
      }
      const out = new Uint8Array(Math.max(0, stop - start));
      let offset = 0;
      for (const part of parts) {
        const length = partLength(part);
        const from = Math.max(start, offset);
        const to = Math.min(stop, offset + length);
        if (from < to && part instanceof Uint8Array) {
          out.set(part.subarray(from - offset, to - offset), from - start);
        }
        offset += length;
        if (offset >= stop) break;
      }
      return out;
    },
  };
}

function partLength(part: FilePart): number {
  return part instanceof Uint8Array ? part.length : part.zeros;
}

/** What went through a counting R2 bucket: each `get` is one subrequest in production. */
export interface GetLog {
  gets: number;
  bytes: number;
  largestGet: number;
}

/**
 * The production R2 range source over `file`, its bucket counting every `get`, so a test sees
 * the subrequests a probe would make (after the source's own windows and cache).
 */
export function countingR2Source(file: RangeSource): RangeSource & { log: GetLog } {
  const log: GetLog = { gets: 0, bytes: 0, largestGet: 0 };
  const bucket = {
    async get(_key: string, options: { range: { offset: number; length: number } }) {
      const { offset, length } = options.range;
      log.gets++;
      log.bytes += length;
      log.largestGet = Math.max(log.largestGet, length);
      const bytes = await file.read(offset, offset + length);
      const whole = bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
      return { arrayBuffer: async () => whole.buffer as ArrayBuffer };
    },
  };
  return Object.assign(r2RangeSource(bucket, "videos/vid_test/original", file.size), { log });
}
