import type { RangeSource } from "../domain/media";

/** A streamed read arrives in pieces of at most this many bytes (a BYOB read's buffer). */
export const STREAM_PIECE_BYTES = 256 * 1024;

/** Small reads of a file by position: a sliding window, or a stream read front to back. */
export interface ByteReader {
  readonly size: number;
  /**
   * Up to `length` bytes at `position` (fewer only at the end of the file). The bytes are a
   * view the reader may reuse: valid until its next call, so a caller that keeps them copies.
   */
  bytes(position: number, length: number): Promise<Uint8Array>;
}

/** Bytes [start, end) of `source` in pieces: streamed when it can, else one read. */
export async function* rangePieces(
  source: RangeSource,
  start: number,
  end: number,
): AsyncIterable<Uint8Array> {
  if (source.stream) yield* source.stream(start, end);
  else yield await source.read(start, end);
}

/**
 * Pieces of a byte stream of at most `STREAM_PIECE_BYTES`: read into buffers of that size when
 * the stream is a byte stream (a BYOB reader), as the runtime delivers them otherwise.
 */
export async function* streamPieces(body: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  let byob: ReadableStreamBYOBReader | null = null;
  try {
    byob = body.getReader({ mode: "byob" });
  } catch {
    // Not a byte stream: its own chunks it is.
  }
  const reader = byob ?? body.getReader();
  let done = false;
  try {
    for (;;) {
      const next = byob
        ? await byob.read(new Uint8Array(STREAM_PIECE_BYTES))
        : await (reader as ReadableStreamDefaultReader<Uint8Array>).read();
      if (next.done) break;
      if (next.value.byteLength > 0) yield next.value;
    }
    done = true;
  } finally {
    // A reader that stops early (the walk ended before the stretch) lets the body go.
    if (!done) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

/**
 * Reads a file front to back as a stream: each stretch of `stretchBytes` is one read (one
 * subrequest), taken a piece at a time, and only the piece in hand and the bytes asked for
 * last are held, so a walk over 10 GiB holds a few hundred KiB whatever the stretch. Positions
 * asked for must not go back past the start of the previous request; one that does is read
 * again from the source. Skipping ahead within the stretch reads past the bytes skipped (as
 * a window would); past the stretch, a new one starts where the walk is.
 */
export class StreamReader implements ByteReader {
  private held: Uint8Array = new Uint8Array(0);
  private heldStart = 0;
  private pieces: AsyncIterator<Uint8Array> | null = null;
  /** The file position of the next byte the stream yields, and where its stretch ends. */
  private streamAt = 0;
  private stretchEnd = 0;

  constructor(
    readonly source: RangeSource,
    private readonly stretchBytes: number,
  ) {}

  get size(): number {
    return this.source.size;
  }

  async bytes(position: number, length: number): Promise<Uint8Array> {
    const end = Math.min(position + length, this.size);
    if (position >= end) return new Uint8Array(0);
    if (position < this.heldStart) return this.source.read(position, end);
    const heldEnd = this.heldStart + this.held.length;
    if (end <= heldEnd) return this.held.subarray(position - this.heldStart, end - this.heldStart);
    // What lies before `position` is never asked for again.
    const parts = position < heldEnd ? [this.held.subarray(position - this.heldStart)] : [];
    this.held = new Uint8Array(0);
    let filled = position < heldEnd ? heldEnd : position;
    while (filled < end) {
      const piece = await this.pieceAt(filled);
      parts.push(piece);
      filled += piece.length;
    }
    this.held = parts.length === 1 ? (parts[0] ?? new Uint8Array(0)) : concat(parts);
    this.heldStart = position;
    return this.held.subarray(0, end - position);
  }

  /** Lets go of the stream still open (the rest of its stretch is not read). */
  async close(): Promise<void> {
    const pieces = this.pieces;
    this.pieces = null;
    this.held = new Uint8Array(0);
    await pieces?.return?.();
  }

  /** The bytes the stream holds from `at` on, up to the end of its next piece. */
  private async pieceAt(at: number): Promise<Uint8Array> {
    for (;;) {
      if (this.pieces === null || at < this.streamAt || at >= this.stretchEnd) await this.open(at);
      const pieces = this.pieces;
      if (pieces === null) throw new Error("The stream reader has no stream.");
      const next = await pieces.next();
      if (next.done) {
        this.pieces = null;
        if (this.streamAt < this.stretchEnd) {
          throw new Error(`The stream ended at byte ${this.streamAt} of ${this.stretchEnd}.`);
        }
        continue;
      }
      const start = this.streamAt;
      this.streamAt += next.value.length;
      if (this.streamAt > at) return next.value.subarray(at - start);
    }
  }

  private async open(at: number): Promise<void> {
    await this.pieces?.return?.();
    this.streamAt = at;
    this.stretchEnd = Math.min(this.size, at + this.stretchBytes);
    this.pieces = rangePieces(this.source, at, this.stretchEnd)[Symbol.asyncIterator]();
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
