import type { RangeSource } from "../domain/media";
import { sequentialWindowBytes } from "./read-budget";

/** Neighbouring pieces closer than this are fetched in one read: a gap is cheaper than a call. */
const MAX_GAP_BYTES = 16 * 1024;
/** No single coalesced read grows past this while reads are few. */
const MAX_READ_BYTES = 1024 * 1024;
/**
 * Past this many reads, pieces further apart are read together: a caption every few seconds
 * of a film lies megabytes from the next, and one read per cue would cost thousands of
 * subrequests.
 */
export const MAX_SCATTERED_READS = 64;

/** A piece of the file to read. */
export interface ByteRange {
  offset: number;
  size: number;
}

interface Group {
  first: number;
  last: number;
  start: number;
  end: number;
}

/**
 * Reads many small, scattered pieces (text samples, subtitle blocks) with few reads by
 * merging neighbours, and hands each piece to `handle` in file order. At most
 * `MAX_SCATTERED_READS` reads, or, when the pieces are spread through a large file, one read
 * per window of a whole-file pass (`sequentialWindowBytes`): about 256, 320 at 10 GiB.
 */
export async function readCoalesced<T extends ByteRange>(
  source: RangeSource,
  pieces: T[],
  handle: (piece: T, bytes: Uint8Array) => void,
): Promise<void> {
  const ordered = pieces
    .filter((piece) => piece.size > 0 && piece.offset < source.size)
    .sort((a, b) => a.offset - b.offset);
  let groups = plan(ordered, MAX_GAP_BYTES, MAX_READ_BYTES);
  const maxRead = Math.max(MAX_READ_BYTES, sequentialWindowBytes(source.size));
  // The smallest gap that brings the reads within budget, so the fewest unneeded bytes come too.
  for (let gap = MAX_GAP_BYTES * 4; groups.length > MAX_SCATTERED_READS; gap *= 4) {
    groups = plan(ordered, Math.min(gap, maxRead), maxRead);
    if (gap >= maxRead) break;
  }
  for (const group of groups) {
    const bytes = await source.read(group.start, Math.min(group.end, source.size));
    for (let i = group.first; i <= group.last; i++) {
      const piece = ordered[i];
      if (piece === undefined) continue;
      const start = piece.offset - group.start;
      handle(piece, bytes.subarray(start, start + piece.size));
    }
  }
}

/** Greedy groups of pieces (in file order) no further apart than `maxGap`, each ≤ `maxRead`. */
function plan(ordered: ByteRange[], maxGap: number, maxRead: number): Group[] {
  const groups: Group[] = [];
  let index = 0;
  while (index < ordered.length) {
    const first = ordered[index];
    if (first === undefined) break;
    let last = index;
    let end = first.offset + first.size;
    for (let next = ordered[last + 1]; next !== undefined; next = ordered[last + 1]) {
      const nextEnd = Math.max(end, next.offset + next.size);
      if (next.offset - end > maxGap || nextEnd - first.offset > maxRead) break;
      end = nextEnd;
      last++;
    }
    groups.push({ first: index, last, start: first.offset, end });
    index = last + 1;
  }
  return groups;
}
