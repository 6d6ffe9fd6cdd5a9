import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  PagedVectors,
  type PagedVectorsOptions,
} from "../../../src/ports/vector-index/local-index/paged-vectors";
import { quantise } from "../../../src/ports/vector-index/local-index/quantised-vectors";

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

/**
 * Runs `work` against a PagedVectors over a fresh index object's SQLite storage. `open`
 * builds another store over the same storage, as a restarted object would.
 */
async function withStore<T>(
  dimensions: number,
  options: PagedVectorsOptions,
  work: (
    store: PagedVectors,
    write: (change: () => void) => void,
    open: () => PagedVectors,
    sql: SqlStorage,
  ) => T,
): Promise<T> {
  const stub = env.LOCAL_INDEX.getByName(`ws_paged_${crypto.randomUUID()}`);
  return runInDurableObject(stub, (_instance, state) => {
    const open = () => new PagedVectors(state.storage.sql, dimensions, options);
    const write = (change: () => void) => state.storage.transactionSync(change);
    return work(open(), write, open, state.storage.sql);
  });
}

function row(id: string, videoId: string, codes: ArrayLike<number>) {
  return { id, videoId, quantised: { codes: Int8Array.from(codes), scale: 1 } };
}

describe("PagedVectors", () => {
  it("answers exactly what a brute-force scan answers, across sealed blocks, tombstones, compaction, paging and a reload", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(operation, { minLength: 1, maxLength: 6 }), { maxLength: 40 }),
        vector,
        fc.integer({ min: 1, max: 20 }),
        fc.option(fc.uniqueArray(fc.integer({ min: 0, max: 5 }), { maxLength: 3 }), {
          nil: undefined,
        }),
        fc.constantFrom(3, 4, 16),
        fc.constantFrom(0, 64, 1 << 20),
        async (batches, query, topK, videos, blockSize, cacheBytes) => {
          await withStore(DIMS, { blockSize, cacheBytes }, (store, write, open) => {
            const model = new Map<string, { video: string; codes: Int8Array }>();
            for (const batch of batches) {
              write(() => {
                // Consecutive puts go in as one upsert, as the index object receives them.
                let puts: Parameters<PagedVectors["upsert"]>[0] = [];
                const flushPuts = () => {
                  if (puts.length > 0) store.upsert(puts);
                  puts = [];
                };
                for (const op of batch) {
                  const id = `seg_${op.id}`;
                  if (op.kind === "put") {
                    const { codes } = quantise(op.values);
                    puts.push({ id, videoId: `vid_${op.video}`, quantised: { codes, scale: 1 } });
                    model.set(id, { video: `vid_${op.video}`, codes });
                  } else {
                    flushPuts();
                    expect(store.delete([id])).toBe(model.delete(id) ? 1 : 0);
                  }
                }
                flushPuts();
              });
            }
            const videoIds = videos?.map((v) => `vid_${v}`);
            for (const reader of [store, open()]) {
              expect(reader.count).toBe(model.size);
              const got = reader.search(query, topK, videoIds);
              // Only the all-zero query has no direction (a tiny one keeps its direction).
              if (query.every((q) => q === 0)) {
                expect(got).toEqual([]);
                continue;
              }
              const candidates = [...model.entries()]
                .filter(([, v]) => videoIds === undefined || videoIds.includes(v.video))
                .map(([id, v]) => ({ id, videoId: v.video, score: exactScore(query, v.codes) }))
                .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
              const expected = candidates.slice(0, topK);
              // The kernel sums in f32: scores within 1e-5 of exact (closeTo(x, 5)).
              expect(got.map((m) => m.score)).toEqual(
                expected.map((m) => expect.closeTo(m.score, 5)),
              );
              // Ids agree wherever scores are not tied within that.
              got.forEach((match, i) => {
                const want = expected[i];
                const tied = candidates.some(
                  (e) => e.id !== want?.id && Math.abs(e.score - match.score) < 1e-5,
                );
                if (!tied)
                  expect(match).toEqual({ ...want, score: expect.closeTo(want?.score ?? 0, 5) });
              });
            }
          });
        },
      ),
      { numRuns: 120 },
    );
  });

  it("keeps the direction of a query whose squares are subnormal or underflow", async () => {
    await withStore(3, {}, (store, write) => {
      write(() =>
        store.upsert([row("seg_a", "vid_a", [0, 0, 127]), row("seg_b", "vid_a", [127, 0, 0])]),
      );
      const tilted = store.search([3e-162, 0, 4e-162], 2);
      expect(tilted.map((m) => m.id)).toEqual(["seg_a", "seg_b"]);
      expect(tilted[0]?.score).toBeCloseTo(0.8, 6);
      expect(tilted[1]?.score).toBeCloseTo(0.6, 6);
      expect(store.search([1e-170, 0, 0], 1).map((m) => [m.id, m.score])).toEqual([["seg_b", 1]]);
    });
  });

  it("holds no more than its cache and one open block in memory, however many vectors it has", async () => {
    const blockSize = 256;
    const cacheBytes = 16 * 1024;
    await withStore(4, { blockSize, cacheBytes }, (store, write, open) => {
      write(() =>
        store.upsert(
          Array.from({ length: 10_000 }, (_, i) =>
            row(`seg_${i}`, `vid_${i % 3}`, [1, 0, 0, i % 128]),
          ),
        ),
      );
      write(() => store.delete(Array.from({ length: 5_000 }, (_, i) => `seg_${2 * i}`)));
      for (const reader of [store, open()]) {
        expect(reader.count).toBe(5_000);
        const top = reader.search([1, 0, 0, 0], 3);
        // Odd ids remain, so the best last component is 1 (ids with i % 128 === 1, all tied).
        expect(top).toHaveLength(3);
        for (const match of top) {
          expect(Number(match.id.slice(4)) % 128).toBe(1);
          expect(match.score).toBeCloseTo(1 / Math.sqrt(2), 6);
        }
        const inVideo = reader.search([1, 0, 0, 0], 100, ["vid_1"]);
        expect(inVideo).toHaveLength(100);
        expect(inVideo.every((m) => m.videoId === "vid_1")).toBe(true);
        // 10,000 × 4 dimensions is 40 KB of codes alone; the cache keeps 16 KB of it.
        const openBlock = blockSize * 4 + blockSize * 12;
        // Plus the scan kernel's memory: one 64 KiB page holds a block this small.
        expect(reader.bytes()).toBeLessThanOrEqual(cacheBytes + openBlock + 65_536);
      }
    });
  });

  it("answers tied vectors the same way every time, keeping the ones stored first", async () => {
    await withStore(2, { blockSize: 4, cacheBytes: 8 }, (store, write) => {
      // 30 equal vectors over seven sealed blocks and an open one, read through a cache too
      // small to keep any column: every query pages all of them in again.
      const ids = Array.from({ length: 30 }, (_, i) => `seg_${String(i).padStart(2, "0")}`);
      write(() => store.upsert(ids.map((id) => row(id, "vid_1", [3, 4]))));
      const answers = [1, 2, 3, 4].map(() => store.search([3, 4], 3).map((match) => match.id));
      for (const answer of answers) expect(answer).toEqual(["seg_00", "seg_01", "seg_02"]);
    });
  });

  it("compacts a block once most of it is deleted, so deleted vectors do not pile up", async () => {
    await withStore(2, { blockSize: 4 }, (store, write, _open, sql) => {
      const sealed = () =>
        sql
          .exec<{ block: number }>("SELECT block FROM blocks ORDER BY block")
          .toArray()
          .map((r) => r.block);
      write(() =>
        store.upsert(Array.from({ length: 12 }, (_, i) => row(`seg_${i}`, "vid_1", [1, i]))),
      );
      expect(sealed()).toEqual([0, 1, 2]);
      // Three of block 0's four are deleted: it is dropped and seg_3 moves to the open block.
      write(() => store.delete(["seg_0", "seg_1", "seg_2"]));
      expect(sealed()).toEqual([1, 2]);
      write(() => store.upsert([row("seg_4", "vid_2", [0, 1])]));
      // One of block 1's four replaced: a tombstone, the block stays.
      expect(sealed()).toEqual([1, 2]);
      expect(store.count).toBe(9);
      expect(store.search([0, 1], 1)).toEqual([
        { id: "seg_4", videoId: "vid_2", score: expect.closeTo(1, 9) },
      ]);
      expect(
        store
          .search([1, 0], 20)
          .map((m) => m.id)
          .sort(),
      ).toEqual(
        ["seg_3", "seg_4", "seg_5", "seg_6", "seg_7", "seg_8", "seg_9", "seg_10", "seg_11"].sort(),
      );
    });
  });

  it("gives vectors stored before slots existed a slot, once, and finds them", async () => {
    await withStore(2, { blockSize: 4 }, (_store, write, open, sql) => {
      for (let i = 0; i < 6; i++) {
        sql.exec(
          "INSERT INTO vectors (id, video_id, codes, scale) VALUES (?, ?, ?, 1)",
          `seg_${i}`,
          "vid_1",
          Int8Array.from([1, i]).buffer,
        );
      }
      const store = open();
      write(() => store.placeUnslotted());
      write(() => open().placeUnslotted());
      const slots = sql
        .exec<{ slot: number }>("SELECT slot FROM vectors ORDER BY slot")
        .toArray()
        .map((r) => r.slot);
      expect(slots).toEqual([0, 1, 2, 3, 4, 5]);
      for (const reader of [store, open()]) {
        expect(reader.count).toBe(6);
        expect(reader.search([0, 1], 1).map((m) => m.id)).toEqual(["seg_5"]);
      }
    });
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
