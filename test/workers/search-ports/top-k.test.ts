import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TopK } from "../../../src/ports/vector-index/local-index/top-k";

describe("TopK", () => {
  it("keeps the k best by score, then lowest slot, whatever order they are offered in", () => {
    fc.assert(
      fc.property(
        // Few distinct scores, so ties are common.
        fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 60 }),
        fc.integer({ min: 0, max: 12 }),
        fc.integer(),
        (scores, k, seed) => {
          const candidates = scores.map((score, slot) => ({ score: score / 4, slot }));
          const expected = [...candidates]
            .sort((a, b) => b.score - a.score || a.slot - b.slot)
            .slice(0, k);
          const key = (slot: number) => Math.imul(slot ^ seed, 2_654_435_761) >>> 0;
          const shuffled = [...candidates].sort((a, b) => key(a.slot) - key(b.slot));
          for (const order of [candidates, [...candidates].reverse(), shuffled]) {
            const heap = new TopK(k);
            for (const { score, slot } of order) {
              if (score >= heap.threshold) heap.push(score, slot);
            }
            expect(heap.sorted()).toEqual(expected);
          }
        },
      ),
    );
  });
});
