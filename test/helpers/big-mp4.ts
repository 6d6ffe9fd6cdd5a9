import type { RangeSource } from "../../src/domain/media";
import { fixtureBytes } from "./media-fixtures";
import { type FilePart, partsSource } from "./media-sources";

/** Where the padding goes relative to the movie header. */
export interface BigMp4Options {
  /**
   * `first`: talk.mp4 (moov at the start) followed by the padding box.
   * `last`: moov-at-end.mov with the padding box between its `mdat` and its `moov`, so a reader
   * must skip the whole padding to find the index.
   */
  moov?: "first" | "last";
  /** The padding box's type: `free` (default) or a second, unreferenced `mdat`. */
  paddingType?: "free" | "mdat";
}

/** Largest size a 32-bit box header can state; bigger boxes need the 64-bit largesize form. */
const MAX_32_BIT_BOX = 0xffffffff;
const CHUNK_BYTES = 1024 * 1024;

/**
 * The layout of a valid MP4/MOV of exactly `sizeBytes`: a small real fixture plus one huge
 * padding box, as parts (the padding is zeros that are never allocated). Probing it must
 * measure what the fixture holds: talk.mp4 for `first`, moov-at-end.mov for `last`.
 */
export function bigMp4Parts(sizeBytes: number, options: BigMp4Options = {}): FilePart[] {
  const moovLast = options.moov === "last";
  const base = fixtureBytes(moovLast ? "moov-at-end.mov" : "talk.mp4");
  const paddingBytes = sizeBytes - base.length;
  if (paddingBytes < 16) throw new Error(`${sizeBytes} bytes is too small for a padded MP4.`);
  const header = boxHeader(options.paddingType ?? "free", paddingBytes);
  const padding: FilePart[] = [header, { zeros: paddingBytes - header.length }];
  if (!moovLast) return [base, ...padding];
  const moovAt = topLevelOffset(base, "moov");
  return [base.subarray(0, moovAt), ...padding, base.subarray(moovAt)];
}

/** A RangeSource serving a padded MP4 of `sizeBytes` without allocating it. */
export function bigMp4Source(sizeBytes: number, options: BigMp4Options = {}): RangeSource {
  return partsSource(bigMp4Parts(sizeBytes, options));
}

/**
 * The bytes of a padded MP4 of `sizeBytes`, lazily, in chunks of at most 1 MiB: for uploading a
 * 2 GiB video in a test without ever holding it. Zero chunks share one buffer: do not mutate.
 */
export function* bigMp4Chunks(
  sizeBytes: number,
  options: BigMp4Options = {},
): Generator<Uint8Array> {
  const zeros = new Uint8Array(CHUNK_BYTES);
  for (const part of bigMp4Parts(sizeBytes, options)) {
    if (part instanceof Uint8Array) {
      for (let at = 0; at < part.length; at += CHUNK_BYTES) {
        yield part.subarray(at, at + CHUNK_BYTES);
      }
      continue;
    }
    for (let left = part.zeros; left > 0; left -= CHUNK_BYTES) {
      yield zeros.subarray(0, Math.min(left, CHUNK_BYTES));
    }
  }
}

/** The same bytes as a ReadableStream (e.g. for a `fetch` body or an R2 put). */
export function bigMp4Stream(
  sizeBytes: number,
  options: BigMp4Options = {},
): ReadableStream<Uint8Array> {
  const chunks = bigMp4Chunks(sizeBytes, options);
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.next();
      if (next.done) controller.close();
      // A copy: the consumer may transfer or keep the chunk, and zero chunks share a buffer.
      else controller.enqueue(next.value.slice());
    },
  });
}

function boxHeader(type: string, size: number): Uint8Array {
  const large = size > MAX_32_BIT_BOX;
  const header = new Uint8Array(large ? 16 : 8);
  const view = new DataView(header.buffer);
  view.setUint32(0, large ? 1 : size);
  for (let i = 0; i < 4; i++) header[4 + i] = type.charCodeAt(i);
  if (large) view.setBigUint64(8, BigInt(size));
  return header;
}

function topLevelOffset(bytes: Uint8Array, type: string): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 0; at + 8 <= bytes.length; at += view.getUint32(at)) {
    const found = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    if (found === type) return at;
    if (view.getUint32(at) < 8) break;
  }
  throw new Error(`The fixture has no top-level "${type}" box.`);
}
