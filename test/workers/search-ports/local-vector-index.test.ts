import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LocalVectorIndexAdapter } from "../../../src/ports/vector-index/local-do";
import { quantise } from "../../../src/ports/vector-index/local-index/quantised-vectors";
import type { VectorRecord } from "../../../src/ports/vector-index/port";

const index = new LocalVectorIndexAdapter(env.LOCAL_INDEX);
let workspaces = 0;
/** Each test gets its own object, so nothing depends on order. */
const freshWorkspace = () => `ws_test_${++workspaces}_${crypto.randomUUID()}`;

/** A seeded generator, so failures reproduce. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function unitVector(next: () => number, dims: number): Float32Array {
  // Sum of uniforms ≈ Gaussian, so directions are spread over the sphere.
  const v = Float32Array.from({ length: dims }, () => next() + next() + next() - 1.5);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += (a[i] ?? 0) * (b[i] ?? 0);
    na += (a[i] ?? 0) ** 2;
    nb += (b[i] ?? 0) ** 2;
  }
  return dot / Math.sqrt(na * nb);
}

function record(id: string, videoId: string, values: ArrayLike<number>): VectorRecord {
  return { id, values: Float32Array.from(values), metadata: { video_id: videoId } };
}

describe("LocalVectorIndex", () => {
  it("upserts, queries by cosine, filters by video and deletes", async () => {
    const ws = freshWorkspace();
    await index.upsert(ws, [
      record("seg_a", "vid_1", [1, 0, 0]),
      record("seg_b", "vid_1", [1, 1, 0]),
      record("seg_c", "vid_2", [0, 1, 0]),
      record("seg_d", "vid_3", [-1, 0, 0]),
    ]);
    const q = Float32Array.from([2, 0, 0]);

    const all = await index.query(ws, q, { topK: 10 });
    expect(all.map((m) => m.id)).toEqual(["seg_a", "seg_b", "seg_c", "seg_d"]);
    expect(all.map((m) => m.score)).toEqual([1, expect.closeTo(Math.SQRT1_2, 6), 0, -1]);
    expect(all[0]?.metadata).toEqual({ video_id: "vid_1" });

    const filtered = await index.query(ws, q, { topK: 10, videoIds: ["vid_2", "vid_3", "vid_x"] });
    expect(filtered.map((m) => m.id)).toEqual(["seg_c", "seg_d"]);
    expect(await index.query(ws, q, { topK: 10, videoIds: [] })).toEqual([]);
    expect(await index.query(ws, q, { topK: 2 })).toHaveLength(2);

    await index.upsert(ws, [record("seg_a", "vid_2", [0, 0, 1])]);
    await index.delete(ws, ["seg_b", "seg_missing"]);
    const after = await index.query(ws, q, { topK: 10 });
    expect(after.map((m) => [m.id, m.metadata.video_id])).toEqual([
      ["seg_a", "vid_2"],
      ["seg_c", "vid_2"],
      ["seg_d", "vid_3"],
    ]);
    expect(await env.LOCAL_INDEX.getByName(ws).stats()).toMatchObject({ count: 3, dimensions: 3 });
  });

  it("finds the same top-k as a brute-force scan of the quantised vectors", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.integer({ min: 1, max: 400 }),
        fc.integer({ min: 1, max: 100 }),
        fc.boolean(),
        async (seed, n, topK, filter) => {
          const next = random(seed);
          const ws = freshWorkspace();
          const records = Array.from({ length: n }, (_, i) =>
            record(`seg_${i}`, `vid_${i % 5}`, unitVector(next, 24)),
          );
          await index.upsert(ws, records);
          const deleted = records.filter(() => next() < 0.2).map((r) => r.id);
          await index.delete(ws, deleted);
          const query = unitVector(next, 24);
          const videoIds = filter ? ["vid_1", "vid_3"] : undefined;

          const got = await index.query(ws, query, videoIds ? { topK, videoIds } : { topK });
          const candidates = new Map(
            records
              .filter((r) => !deleted.includes(r.id))
              .filter((r) => videoIds === undefined || videoIds.includes(r.metadata.video_id))
              .map((r) => [r.id, cosine(query, quantise(r.values).codes)]),
          );
          // The top-k up to float rounding: right size, each score the brute-force one,
          // ranked, and nothing left out that beats the last one kept (near-ties may swap).
          expect(got).toHaveLength(Math.min(topK, candidates.size));
          for (const m of got) expect(m.score).toBeCloseTo(candidates.get(m.id) ?? 2, 5);
          for (let i = 1; i < got.length; i++)
            expect(got[i]?.score ?? 2).toBeLessThanOrEqual((got[i - 1]?.score ?? 2) + 1e-6);
          const kept = new Set(got.map((m) => m.id));
          const floor = got.at(-1)?.score ?? -2;
          for (const [id, score] of candidates)
            if (!kept.has(id)) expect(score).toBeLessThanOrEqual(floor + 1e-5);
        },
      ),
      { numRuns: 25 },
    );
  });

  it("keeps int8 scores within 0.02 of float cosine and the float top-10 nearly intact", async () => {
    const ws = freshWorkspace();
    const next = random(42);
    const records = Array.from({ length: 2_000 }, (_, i) =>
      record(`seg_${i}`, `vid_${i % 10}`, unitVector(next, 384)),
    );
    await index.upsert(ws, records);
    let overlap = 0;
    for (let q = 0; q < 20; q++) {
      // Queries near a stored vector, so the top ranks are meaningful, not noise.
      const anchor = records[Math.floor(next() * records.length)]?.values ?? new Float32Array(384);
      const query = unitVector(next, 384).map((x, d) => x + 2 * (anchor[d] ?? 0));
      const got = await index.query(ws, query, { topK: 10 });
      const exact = records
        .map((r) => ({ id: r.id, score: cosine(query, r.values) }))
        .sort((a, b) => b.score - a.score);
      const exactById = new Map(exact.map((e) => [e.id, e.score]));
      for (const m of got)
        expect(Math.abs(m.score - (exactById.get(m.id) ?? 9))).toBeLessThan(0.02);
      const top = new Set(exact.slice(0, 10).map((e) => e.id));
      overlap += got.filter((m) => top.has(m.id)).length;
    }
    expect(overlap / 200).toBeGreaterThanOrEqual(0.9);
  });

  it("keeps workspaces apart: one object each", async () => {
    const [a, b] = [freshWorkspace(), freshWorkspace()];
    await index.upsert(a, [record("seg_same", "vid_a", [1, 0])]);
    await index.upsert(b, [record("seg_same", "vid_b", [0, 1]), record("seg_b", "vid_b", [1, 1])]);
    const q = Float32Array.from([1, 0]);
    expect((await index.query(a, q, { topK: 5 })).map((m) => m.metadata.video_id)).toEqual([
      "vid_a",
    ]);
    expect((await index.query(b, q, { topK: 5 })).map((m) => m.id)).toEqual(["seg_b", "seg_same"]);
    await index.delete(a, ["seg_same", "seg_b"]);
    expect(await index.query(a, q, { topK: 5 })).toEqual([]);
    expect(await index.query(b, q, { topK: 5 })).toHaveLength(2);
  });

  it("survives a restart: vectors come back from SQLite", async () => {
    const ws = freshWorkspace();
    const next = random(7);
    const records = Array.from({ length: 300 }, (_, i) =>
      record(`seg_${i}`, "vid_1", unitVector(next, 16)),
    );
    await index.upsert(ws, records);
    await index.delete(ws, ["seg_0"]);
    const query = unitVector(next, 16);
    const before = await index.query(ws, query, { topK: 20 });

    const stub = env.LOCAL_INDEX.getByName(ws);
    const first = await runInDurableObject(stub, (instance) => instance);
    await runInDurableObject(stub, (_, state) => state.abort("restart")).catch(() => undefined);
    const restarted = env.LOCAL_INDEX.getByName(ws);
    expect(await runInDurableObject(restarted, (instance) => instance)).not.toBe(first);

    expect(await index.query(ws, query, { topK: 20 })).toEqual(before);
    expect(await restarted.stats()).toMatchObject({ count: 299, dimensions: 16 });
  });

  it("reports count, dimensions and the bytes it holds", async () => {
    const ws = freshWorkspace();
    const stub = env.LOCAL_INDEX.getByName(ws);
    expect(await stub.stats()).toEqual({ count: 0, dimensions: 0, bytes: expect.any(Number) });
    await index.upsert(
      ws,
      Array.from({ length: 100 }, (_, i) => record(`seg_${i}`, "vid_1", [1, i, 2, 3])),
    );
    const stats = await stub.stats();
    expect(stats).toMatchObject({ count: 100, dimensions: 4 });
    expect(stats.bytes).toBeGreaterThan(100 * 4);
  });

  it("refuses malformed writes and queries like Vectorize would", async () => {
    const ws = freshWorkspace();
    await index.upsert(ws, [record("seg_a", "vid_1", [1, 0, 0])]);
    const q = Float32Array.from([1, 0, 0]);
    await expect(index.upsert(ws, [record("seg_b", "vid_1", [1, 0])])).rejects.toThrow(
      /dimensions/,
    );
    await expect(index.upsert(ws, [record("s".repeat(65), "vid_1", [1, 0, 0])])).rejects.toThrow(
      /id/,
    );
    await expect(index.upsert(ws, [record("seg_c", "vid_1", [Number.NaN, 0, 0])])).rejects.toThrow(
      /finite/,
    );
    await expect(index.upsert(ws, [record("seg_d", "", [1, 0, 0])])).rejects.toThrow(/video_id/);
    await expect(index.query(ws, q, { topK: 0 })).rejects.toThrow(/topK/);
    await expect(index.query(ws, q, { topK: 101 })).rejects.toThrow(/topK/);
    await expect(index.query(ws, Float32Array.from([1, 0]), { topK: 1 })).rejects.toThrow(
      /dimensions/,
    );
    expect(await index.query(freshWorkspace(), q, { topK: 1 })).toEqual([]);
    expect((await index.query(ws, q, { topK: 5 })).map((m) => m.id)).toEqual(["seg_a"]);
  });

  it("upserts large batches in several calls", async () => {
    const ws = freshWorkspace();
    const records = Array.from({ length: 1_234 }, (_, i) =>
      record(`seg_${i}`, `vid_${i % 3}`, [1, i / 1_000]),
    );
    await index.upsert(ws, records);
    expect(await env.LOCAL_INDEX.getByName(ws).stats()).toMatchObject({ count: 1_234 });
    await index.delete(
      ws,
      records.map((r) => r.id),
    );
    expect(await env.LOCAL_INDEX.getByName(ws).stats()).toMatchObject({ count: 0 });
  });
});
