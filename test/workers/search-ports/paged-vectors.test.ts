import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { QuantisedVectors, quantise } from "../../../src/services/local-index/quantised-vectors";

const DIMS = 12;

/** Brute-force cosine between a query and the dequantised vector (query scaled to max 1). */
function exactScore(query: number[], codes: Int8Array): number {
  const largest = Math.max(...query.map(Math.abs));
  let dot = 0;
  let qq = 0;
  let cc = 0;
  for (let d = 0; d < query.length; d++) {
    const q = (query[d] ?? 0) / largest;
    const c = codes[d] ?? 0;
    dot += q * c;
    qq += q * q;
    cc += c * c;
  }
  return qq === 0 || cc === 0 ? 0 : Math.min(1, Math.max(-1, dot / Math.sqrt(qq * cc)));
}

const component = fc.oneof(
  fc.constant(0),
  fc.double({ min: -1, max: 1, noNaN: true, noDefaultInfinity: true }),
);
const vector = fc.array(component, { minLength: DIMS, maxLength: DIMS });
const operation = fc.oneof(
  fc.record({
    kind: fc.constant("put" as const),
    id: fc.integer({ min: 0, max: 60 }),
    video: fc.integer({ min: 0, max: 4 }),
    values: vector,
  }),
  fc.record({ kind: fc.constant("delete" as const), id: fc.integer({ min: 0, max: 60 }) }),
);

describe("QuantisedVectors", () => {
  it("answers exactly what a brute-force scan over the stored codes answers", () => {
    fc.assert(
      fc.property(
        fc.array(operation, { maxLength: 150 }),
        vector,
        fc.integer({ min: 1, max: 20 }),
        fc.option(fc.uniqueArray(fc.integer({ min: 0, max: 5 }), { maxLength: 3 }), {
          nil: undefined,
        }),
        (operations, query, topK, videos) => {
          const store = new QuantisedVectors(DIMS);
          const model = new Map<string, { video: string; codes: Int8Array }>();
          for (const op of operations) {
            const id = `seg_${op.id}`;
            if (op.kind === "put") {
              const { codes } = quantise(op.values);
              store.put(id, `vid_${op.video}`, codes);
              model.set(id, { video: `vid_${op.video}`, codes });
            } else {
              expect(store.delete(id)).toBe(model.delete(id));
            }
          }
          expect(store.count).toBe(model.size);
          const videoIds = videos?.map((v) => `vid_${v}`);
          const got = store.search(query, topK, videoIds);
          // Only the all-zero query has no direction (a tiny one keeps its direction).
          if (query.every((q) => q === 0)) {
            expect(got).toEqual([]);
            return;
          }
          const candidates = [...model.entries()]
            .filter(([, v]) => videoIds === undefined || videoIds.includes(v.video))
            .map(([id, v]) => ({ id, videoId: v.video, score: exactScore(query, v.codes) }))
            .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
          const expected = candidates.slice(0, topK);
          expect(got.map((m) => m.score)).toEqual(expected.map((m) => expect.closeTo(m.score, 9)));
          // Ids agree wherever scores are not tied.
          got.forEach((match, i) => {
            const want = expected[i];
            const tied = candidates.some(
              (e) => e.id !== want?.id && Math.abs(e.score - match.score) < 1e-9,
            );
            if (!tied)
              expect(match).toEqual({ ...want, score: expect.closeTo(want?.score ?? 0, 9) });
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it("keeps the direction of a query whose squares are subnormal or underflow", () => {
    const store = new QuantisedVectors(3);
    store.put("seg_a", "vid_a", Int8Array.from([0, 0, 127]));
    store.put("seg_b", "vid_a", Int8Array.from([127, 0, 0]));
    const tilted = store.search([3e-162, 0, 4e-162], 2);
    expect(tilted.map((m) => m.id)).toEqual(["seg_a", "seg_b"]);
    expect(tilted[0]?.score).toBeCloseTo(0.8, 9);
    expect(tilted[1]?.score).toBeCloseTo(0.6, 9);
    expect(store.search([1e-170, 0, 0], 1).map((m) => [m.id, m.score])).toEqual([["seg_b", 1]]);
  });

  it("spans several blocks and keeps slots dense through deletes", () => {
    const store = new QuantisedVectors(4);
    for (let i = 0; i < 10_000; i++)
      store.put(`seg_${i}`, `vid_${i % 3}`, Int8Array.from([1, 0, 0, i % 128]));
    for (let i = 0; i < 10_000; i += 2) store.delete(`seg_${i}`);
    expect(store.count).toBe(5_000);
    const top = store.search([1, 0, 0, 0], 3);
    // Odd ids remain, so the best last component is 1 (ids with i % 128 === 1, all tied).
    for (const match of top) {
      expect(Number(match.id.slice(4)) % 128).toBe(1);
      expect(match.score).toBeCloseTo(1 / Math.sqrt(2), 6);
    }
    expect(store.search([1, 0, 0, 0], 100, ["vid_1"]).every((m) => m.videoId === "vid_1")).toBe(
      true,
    );
    expect(store.bytes()).toBeGreaterThan(5_000 * 4);
  });

  it("quantises with a per-vector scale to within half a step", () => {
    fc.assert(
      fc.property(fc.array(component, { minLength: 1, maxLength: 64 }), (values) => {
        const { codes, scale } = quantise(values);
        values.forEach((v, i) => {
          expect(Math.abs((codes[i] ?? 0) * scale - v)).toBeLessThanOrEqual(scale / 2 + 1e-12);
        });
      }),
    );
  });
});
