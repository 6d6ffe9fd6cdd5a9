import type { RangeSource } from "../../src/domain/media";

/**
 * Fixed-width entries of a sample table (stsz, ctts, stco, ...), computed when read instead of
 * stored: a table of millions of entries costs nothing until a reader asks for its bytes.
 */
export interface Table {
  length: number;
  entryBytes: number;
  /** Writes entry `index` at `at` in `view`. */
  write(view: DataView, at: number, index: number): void;
}

/** A piece of a virtual file: bytes, or a table computed on read. */
export type Piece = Uint8Array | Table;

/** A table of `count` entries of `entryBytes` each. */
export function table(
  count: number,
  entryBytes: number,
  write: (view: DataView, at: number, index: number) => void,
): Table {
  return { length: count * entryBytes, entryBytes, write };
}

/** Big-endian fields of the given widths in bits, e.g. `fields([32, 1], [64, duration])`. */
export function fields(...values: [8 | 16 | 32 | 64, number][]): Uint8Array {
  const out = new Uint8Array(values.reduce((n, [bits]) => n + bits / 8, 0));
  const view = new DataView(out.buffer);
  let at = 0;
  for (const [bits, value] of values) {
    if (bits === 8) view.setUint8(at, value);
    else if (bits === 16) view.setUint16(at, value);
    else if (bits === 32) view.setUint32(at, value);
    else view.setBigUint64(at, BigInt(value));
    at += bits / 8;
  }
  return out;
}

/** A four-character code's bytes. */
export function fourCc(code: string): Uint8Array {
  return Uint8Array.from(code, (c) => c.charCodeAt(0));
}

/** The total length of some pieces. */
export function piecesLength(pieces: Piece[]): number {
  return pieces.reduce((n, piece) => n + piece.length, 0);
}

/** A box of `type` around its content (32-bit size: every box here stays under 4 GiB). */
export function box(type: string, ...content: Piece[][]): Piece[] {
  const body = content.flat();
  return [fields([32, 8 + piecesLength(body)]), fourCc(type), ...body];
}

/** A full box: a box whose content starts with a version byte and 24 bits of flags. */
export function fullBox(type: string, version: number, flags: number, ...content: Piece[][]) {
  return box(type, [fields([32, version * 2 ** 24 + flags])], ...content);
}

/** A RangeSource over pieces: each read builds only the bytes it asks for. */
export function piecesSource(pieces: Piece[]): RangeSource {
  const starts: number[] = [];
  let size = 0;
  for (const piece of pieces) {
    starts.push(size);
    size += piece.length;
  }
  return {
    size,
    read: async (start, end) => {
      const stop = Math.min(end, size);
      const out = new Uint8Array(Math.max(0, stop - start));
      for (const [i, piece] of pieces.entries()) {
        const pieceStart = starts[i] ?? 0;
        const from = Math.max(start, pieceStart) - pieceStart;
        const to = Math.min(stop, pieceStart + piece.length) - pieceStart;
        if (from >= to) continue;
        out.set(pieceBytes(piece, from, to), pieceStart + from - start);
      }
      return out;
    },
  };
}

function pieceBytes(piece: Piece, from: number, to: number): Uint8Array {
  if (piece instanceof Uint8Array) return piece.subarray(from, to);
  const first = Math.floor(from / piece.entryBytes);
  const last = Math.ceil(to / piece.entryBytes);
  const entries = new Uint8Array((last - first) * piece.entryBytes);
  const view = new DataView(entries.buffer);
  for (let index = first; index < last; index++) {
    piece.write(view, (index - first) * piece.entryBytes, index);
  }
  const skip = first * piece.entryBytes;
  return entries.subarray(from - skip, to - skip);
}
