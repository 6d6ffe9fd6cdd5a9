import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RangeSource } from "../../../src/domain/media";
import { type ByteRange, MAX_SCATTERED_READS, readCoalesced } from "../../../src/media/ranges";
import { MAX_SEQUENTIAL_WINDOW_BYTES, sequentialWindowBytes } from "../../../src/media/read-budget";

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const MAX_PIECE_BYTES = 4096;

/** Byte `i` of the patterned file. */
const patternAt = (i: number) => (i * 7 + (i >> 12)) & 0xff;

/** A file of `size` bytes whose reads are logged; `patterned` fills them, otherwise zeros. */
function loggedFile(size: number, patterned: boolean) {
  const reads: [number, number][] = [];
  // One shared buffer serves every unpatterned read, so a 10 GiB pass allocates nothing.
  const zeros = new Uint8Array(patterned ? 0 : MAX_SEQUENTIAL_WINDOW_BYTES);
  const source: RangeSource = {
    size,
    read: async (start, end) => {
      const stop = Math.min(end, size);
      reads.push([start, stop]);
      if (!patterned) return zeros.subarray(0, stop - start);
      return Uint8Array.from({ length: stop - start }, (_, i) => patternAt(start + i));
    },
  };
  return { source, reads };
}

const piecesIn = (size: number) =>
  fc.array(
    fc.record({ offset: fc.nat(size - 1), size: fc.integer({ min: 1, max: MAX_PIECE_BYTES }) }),
    { maxLength: 3000 },
  );

async function collect(source: RangeSource, pieces: ByteRange[]) {
  const seen: { piece: ByteRange; bytes: Uint8Array }[] = [];
  await readCoalesced(source, pieces, (piece, bytes) => seen.push({ piece, bytes }));
  return seen;
}

describe("readCoalesced", () => {
  it("hands every piece its own bytes, in file order", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .integer({ min: 1, max: 8 * MiB })
          .chain((size) => fc.tuple(fc.constant(size), piecesIn(size))),
        async ([size, pieces]) => {
          const { source } = loggedFile(size, true);
          const seen = await collect(source, pieces);
          expect(seen).toHaveLength(pieces.length);
          const offsets = seen.map(({ piece }) => piece.offset);
          expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
          for (const { piece, bytes } of seen) {
            const length = Math.min(piece.size, size - piece.offset);
            expect(bytes).toEqual(
              Uint8Array.from({ length }, (_, i) => patternAt(piece.offset + i)),
            );
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it("reads up to 10 GiB in a bounded number of bounded reads, however scattered", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .integer({ min: MiB, max: 10 * GiB })
          .chain((size) => fc.tuple(fc.constant(size), piecesIn(size))),
        async ([size, pieces]) => {
          const { source, reads } = loggedFile(size, false);
          await collect(source, pieces);
          const maxRead = Math.max(MiB, sequentialWindowBytes(size));
          const passReads = Math.ceil(size / (maxRead - MAX_PIECE_BYTES)) + 1;
          expect(reads.length).toBeLessThanOrEqual(Math.max(MAX_SCATTERED_READS, passReads));
          expect(reads.length).toBeLessThan(1000);
          for (const [start, end] of reads) expect(end - start).toBeLessThanOrEqual(maxRead);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("reads a caption every 4 s of a 2-hour, 10 GiB file in under 330 reads of ≤ 32 MiB", async () => {
    const size = 10 * GiB;
    const cues = 1800;
    const pieces = Array.from({ length: cues }, (_, i) => ({
      offset: Math.floor((i * size) / cues) + 1000,
      size: 60,
    }));
    const { source, reads } = loggedFile(size, false);
    const seen = await collect(source, pieces);
    expect(seen).toHaveLength(cues);
    expect(reads.length).toBeLessThan(330);
    expect(Math.max(...reads.map(([start, end]) => end - start))).toBeLessThanOrEqual(32 * MiB);
  });
});
