import type { RangeSource } from "../domain/media";

/** A RangeSource over bytes already in memory (a copy of a file's headers, say). */
export function bytesSource(bytes: Uint8Array): RangeSource {
  return { size: bytes.length, read: async (start, end) => bytes.subarray(start, end) };
}

/** Default window: large enough that walking element headers costs one read per window. */
const DEFAULT_WINDOW_BYTES = 64 * 1024;

/**
 * Reads small pieces of a RangeSource through one sliding window, so walking thousands of
 * box or element headers costs a handful of reads while memory stays at one window.
 *
 * Given a `maxWindowBytes` above `windowBytes`, the window doubles (up to that size) each
 * time a read lands just past it, within one maximum window: a walk front to back through a
 * file then costs about `size / maxWindowBytes` reads, while a walk that jumps over huge
 * boxes or elements keeps its small window.
 */
export class RangeReader {
  private windowStart = 0;
  private window: Uint8Array = new Uint8Array(0);
  private windowBytes: number;

  constructor(
    readonly source: RangeSource,
    windowBytes = DEFAULT_WINDOW_BYTES,
    private readonly maxWindowBytes = windowBytes,
  ) {
    this.windowBytes = windowBytes;
  }

  /** The file's size in bytes. */
  get size(): number {
    return this.source.size;
  }

  /** Up to `length` bytes at `position` (fewer only at the end of the file). */
  async bytes(position: number, length: number): Promise<Uint8Array> {
    const end = Math.min(position + length, this.source.size);
    if (position >= end) return new Uint8Array(0);
    const windowEnd = this.windowStart + this.window.length;
    if (position >= this.windowStart && end <= windowEnd) {
      return this.window.subarray(position - this.windowStart, end - this.windowStart);
    }
    const ahead = position - windowEnd;
    if (this.window.length > 0 && ahead >= 0 && ahead < this.maxWindowBytes) {
      this.windowBytes = Math.min(this.windowBytes * 2, this.maxWindowBytes);
    }
    // Payloads bigger than a window are read exactly and not kept: they are read once.
    if (end - position > this.windowBytes) return this.source.read(position, end);
    // Let go of the old window first, so two large windows are never held at once.
    this.window = new Uint8Array(0);
    this.windowStart = position;
    this.window = await this.source.read(
      position,
      Math.min(position + this.windowBytes, this.size),
    );
    return this.window.subarray(0, end - position);
  }
}

/** Big-endian reads over a byte array that never run past its end unnoticed. */
export class ByteView {
  private readonly view: DataView;

  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** The number of bytes. */
  get length(): number {
    return this.bytes.length;
  }

  /** Unsigned 8-bit value at `offset`. */
  u8(offset: number): number {
    return this.view.getUint8(offset);
  }

  /** Unsigned 16-bit big-endian value at `offset`. */
  u16(offset: number): number {
    return this.view.getUint16(offset);
  }

  /** Signed 16-bit big-endian value at `offset`. */
  i16(offset: number): number {
    return this.view.getInt16(offset);
  }

  /** Unsigned 32-bit big-endian value at `offset`. */
  u32(offset: number): number {
    return this.view.getUint32(offset);
  }

  /** Signed 32-bit big-endian value at `offset`. */
  i32(offset: number): number {
    return this.view.getInt32(offset);
  }

  /** Unsigned 64-bit big-endian value at `offset`, exact up to 2^53. */
  u64(offset: number): number {
    return this.u32(offset) * 2 ** 32 + this.u32(offset + 4);
  }

  /** Four ASCII characters at `offset` (a box type or brand). */
  fourCc(offset: number): string {
    return String.fromCharCode(
      this.u8(offset),
      this.u8(offset + 1),
      this.u8(offset + 2),
      this.u8(offset + 3),
    );
  }
}
