import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DimensionCache } from "../../../src/ports/vector-index/local-index/dimension-cache";

const COLUMN = 16;
const column = (fill = 0) => new Int8Array(COLUMN).fill(fill);

describe("DimensionCache", () => {
  it("never holds more than its budget, and holds exactly what it says it keeps", () => {
    const op = fc.oneof(
      fc.record({ query: fc.array(fc.integer({ min: 0, max: 7 }), { maxLength: 4 }) }),
      fc.record({
        offer: fc.record({
          dim: fc.integer({ min: 0, max: 7 }),
          block: fc.integer({ min: 0, max: 5 }),
          size: fc.integer({ min: 1, max: 40 }),
        }),
      }),
      fc.record({ drop: fc.integer({ min: 0, max: 5 }) }),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 120 }),
        fc.array(op, { maxLength: 80 }),
        (budget, ops) => {
          const cache = new DimensionCache(8, budget);
          const kept = new Map<string, Int8Array>();
          for (const step of ops) {
            if ("query" in step) cache.noteQuery(step.query);
            else if ("offer" in step) {
              const { dim, block, size } = step.offer;
              const value = new Int8Array(size);
              if (cache.offer(dim, block, value)) kept.set(`${dim}:${block}`, value);
            } else {
              cache.deleteBlock(step.drop);
            }
            expect(cache.bytes).toBeLessThanOrEqual(budget);
            let held = 0;
            for (let dim = 0; dim < 8; dim++) {
              for (let block = 0; block < 6; block++) {
                const got = cache.get(dim, block);
                if (got === undefined) continue;
                // Whatever is held is the last column offered and kept for that place.
                expect(got).toBe(kept.get(`${dim}:${block}`));
                held += got.byteLength;
              }
            }
            expect(cache.bytes).toBe(held);
          }
        },
      ),
    );
  });

  it("keeps the most used dimensions when every dimension's columns do not fit", () => {
    // Room for four columns: two dimensions of two blocks.
    const cache = new DimensionCache(4, 4 * COLUMN);
    for (let i = 0; i < 5; i++) cache.noteQuery([0, 1]);
    for (const dim of [0, 1]) for (const block of [0, 1]) cache.offer(dim, block, column(dim));
    // A dimension used once does not displace dimensions used five times.
    cache.noteQuery([2]);
    expect(cache.offer(2, 0, column(2))).toBe(false);
    expect(cache.get(2, 0)).toBeUndefined();
    expect(cache.get(0, 1)?.[0]).toBe(0);
    expect(cache.get(1, 1)?.[0]).toBe(1);
    // Once it is used clearly more than one of them, it takes that one's place whole.
    for (let i = 0; i < 10; i++) cache.noteQuery([0, 2]);
    expect(cache.offer(2, 0, column(2))).toBe(true);
    expect(cache.get(2, 0)?.[0]).toBe(2);
    expect(cache.get(1, 0)).toBeUndefined();
    expect(cache.get(1, 1)).toBeUndefined();
    expect(cache.get(0, 0)?.[0]).toBe(0);
    expect(cache.bytes).toBe(3 * COLUMN);
  });

  it("does not turn over between queries of equal use", () => {
    const cache = new DimensionCache(4, 2 * COLUMN);
    cache.noteQuery([0]);
    cache.offer(0, 0, column());
    cache.offer(0, 1, column());
    // The next query's dimension is as new as the last one's: the held one stays.
    cache.noteQuery([1]);
    expect(cache.offer(1, 0, column())).toBe(false);
    expect(cache.bytes).toBe(2 * COLUMN);
    expect(cache.get(0, 1)).toBeDefined();
  });

  it("frees a compacted block's columns and everything on clear", () => {
    const cache = new DimensionCache(4, 8 * COLUMN);
    cache.noteQuery([0, 1]);
    for (const dim of [0, 1]) for (const block of [0, 1, 2]) cache.offer(dim, block, column());
    cache.deleteBlock(1);
    expect(cache.bytes).toBe(4 * COLUMN);
    expect(cache.get(0, 1)).toBeUndefined();
    expect(cache.get(1, 2)).toBeDefined();
    cache.clear();
    expect(cache.bytes).toBe(0);
    expect(cache.get(1, 2)).toBeUndefined();
  });
});
