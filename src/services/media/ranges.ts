import type { RangeSource } from "../../domain/media";

/** Neighbouring pieces closer than this are fetched in one read: a gap is cheaper than a call. */
const MAX_GAP_BYTES = 16 * 1024;
/** No single coalesced read grows past this, so memory stays small whatever the file. */
const MAX_READ_BYTES = 1024 * 1024;

/** A piece of the file to read. */
export interface ByteRange {
  offset: number;
  size: number;
}

/**
 * Reads many small, scattered pieces (text samples, subtitle blocks) with few reads by
 * merging neighbours, and hands each piece to `handle` in file order.
 */
export async function readCoalesced<T extends ByteRange>(
  source: RangeSource,
  pieces: T[],
  handle: (piece: T, bytes: Uint8Array) => void,
): Promise<void> {
  const ordered = pieces
    .filter((piece) => piece.size > 0 && piece.offset < source.size)
    .sort((a, b) => a.offset - b.offset);
  let index = 0;
  while (index < ordered.length) {
    const first = ordered[index];
    if (first === undefined) break;
    let last = index;
    let end = first.offset + first.size;
    for (let next = ordered[last + 1]; next !== undefined; next = ordered[last + 1]) {
      const nextEnd = Math.max(end, next.offset + next.size);
      if (next.offset - end > MAX_GAP_BYTES || nextEnd - first.offset > MAX_READ_BYTES) break;
      end = nextEnd;
      last++;
    }
    const bytes = await source.read(first.offset, Math.min(end, source.size));
    for (let i = index; i <= last; i++) {
      const piece = ordered[i];
      if (piece === undefined) continue;
      const start = piece.offset - first.offset;
      handle(piece, bytes.subarray(start, start + piece.size));
    }
    index = last + 1;
  }
}
