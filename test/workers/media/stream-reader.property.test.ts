import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RangeSource } from "../../../src/domain/media";
import { StreamReader } from "../../../src/media/stream-reader";

/** Byte `i` of the patterned file. */
const patternAt = (i: number) => (i * 7 + (i >> 12)) & 0xff;
const patterned = (start: number, stop: number) =>
  Uint8Array.from({ length: stop - start }, (_, i) => patternAt(start + i));

/**
 * A file whose streamed reads arrive in pieces of `piece` bytes; it logs each stream opened
 * and each whole read, and the largest piece handed out at once.
 */
function streamedFile(size: number, piece: number) {
  const log = { streams: [] as [number, number][], reads: [] as [number, number][], largest: 0 };
  const source: RangeSource = {
    size,
    read: async (start, end) => {
      const stop = Math.min(end, size);
      log.reads.push([start, stop]);
      return patterned(start, stop);
    },
    async *stream(start, end) {
      const stop = Math.min(end, size);
      log.streams.push([start, stop]);
      for (let at = start; at < stop; at += piece) {
        const bytes = patterned(at, Math.min(stop, at + piece));
        log.largest = Math.max(log.largest, bytes.length);
        yield bytes;
      }
    },
  };
  return { source, log };
}

/** A walk forward through the file: each step skips ahead a little, then asks for some bytes. */
const walks = fc.record({
  size: fc.integer({ min: 1, max: 20_000 }),
  piece: fc.integer({ min: 1, max: 700 }),
  stretch: fc.integer({ min: 1, max: 5_000 }),
  steps: fc.array(
    fc.record({
      skip: fc.integer({ min: -12, max: 3_000 }),
      length: fc.integer({ min: 0, max: 900 }),
    }),
    { maxLength: 60 },
  ),
});

describe("StreamReader", () => {
  it("gives the file's own bytes wherever a walk asks, forward or a little back", async () => {
    await fc.assert(
      fc.asyncProperty(walks, async ({ size, piece, stretch, steps }) => {
        const { source, log } = streamedFile(size, piece);
        const reader = new StreamReader(source, stretch);
        let at = 0;
        for (const step of steps) {
          at = Math.max(0, at + step.skip);
          const bytes = await reader.bytes(at, step.length);
          const stop = Math.min(size, at + step.length);
          expect(Array.from(bytes)).toEqual(Array.from(patterned(Math.min(at, stop), stop)));
        }
        await reader.close();
        // Every stream opened covers at most one stretch, and no piece is larger than asked.
        for (const [start, end] of log.streams) expect(end - start).toBeLessThanOrEqual(stretch);
        expect(log.largest).toBeLessThanOrEqual(piece);
      }),
      { numRuns: 300 },
    );
  });

  it("walks a file front to back in one stream a stretch, never reading a byte twice", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 50_000 }),
        fc.integer({ min: 1, max: 1_000 }),
        fc.integer({ min: 1_000, max: 8_000 }),
        async (size, piece, stretch) => {
          const { source, log } = streamedFile(size, piece);
          const reader = new StreamReader(source, stretch);
          for (let at = 0; at < size; at += 12) await reader.bytes(at, 12);
          await reader.close();
          expect(log.reads).toEqual([]);
          expect(log.streams).toEqual(
            Array.from({ length: Math.ceil(size / stretch) }, (_, i) => [
              i * stretch,
              Math.min(size, (i + 1) * stretch),
            ]),
          );
        },
      ),
    );
  });

  it("reads again what lies before the bytes it last gave", async () => {
    const { source, log } = streamedFile(10_000, 256);
    const reader = new StreamReader(source, 4_096);
    await reader.bytes(5_000, 100);
    expect(Array.from(await reader.bytes(100, 50))).toEqual(Array.from(patterned(100, 150)));
    expect(log.reads).toEqual([[100, 150]]);
  });
});
