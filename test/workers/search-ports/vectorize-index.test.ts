import { describe, expect, expectTypeOf, it } from "vitest";
import type { VectorRecord } from "../../../src/ports/vector-index/port";
import {
  type VectorizeBinding,
  VectorizeIndex,
  VectorizeNotVisibleError,
} from "../../../src/ports/vector-index/vectorize";
import { RecordingVectorize } from "./recording-fakes";

const WS = "ws_01jz0000000000000000000000";
const OTHER = "ws_01jz0000000000000000000001";

function record(id: string, videoId: string, values: number[]): VectorRecord {
  return { id, values: Float32Array.from(values), metadata: { video_id: videoId } };
}

/** A clock that only moves when the adapter sleeps, so waits are instant and exact. */
function fakeTime() {
  const time = { now: 0, sleeps: [] as number[] };
  return {
    time,
    options: {
      now: () => time.now,
      sleep: async (ms: number) => {
        time.sleeps.push(ms);
        time.now += ms;
      },
    },
  };
}

describe("VectorizeIndex", () => {
  it("accepts the real Vectorize binding type", () => {
    expectTypeOf<Vectorize>().toExtend<VectorizeBinding>();
  });

  it("upserts into the workspace namespace with video_id, in batches of 1,000", async () => {
    const binding = new RecordingVectorize();
    const records = Array.from({ length: 2_345 }, (_, i) =>
      record(`seg_${i}`, `vid_${i % 7}`, [1, i, 0, 0]),
    );
    await new VectorizeIndex(binding, fakeTime().options).upsert(WS, records);

    expect(binding.upserts.map((batch) => batch.length)).toEqual([1_000, 1_000, 345]);
    const first = binding.upserts[0]?.[3];
    expect(first).toMatchObject({ id: "seg_3", namespace: WS, metadata: { video_id: "vid_3" } });
    expect(Array.from(first?.values ?? [])).toEqual([1, 3, 0, 0]);
    expect(binding.upserts.flat().every((v) => v.namespace === WS)).toBe(true);
  });

  it("resolves only once describe() reports the last mutation processed", async () => {
    const binding = new RecordingVectorize();
    binding.autoApplyAfter = 3;
    const { time, options } = fakeTime();
    const index = new VectorizeIndex(binding, { ...options, pollMs: 100, maxPollMs: 300 });
    await index.upsert(WS, [record("seg_a", "vid_1", [1, 0, 0, 0])]);

    expect(binding.describeCalls).toBe(4);
    expect(time.sleeps).toEqual([100, 200, 300]);
    const matches = await index.query(WS, Float32Array.from([1, 0, 0, 0]), { topK: 5 });
    expect(matches.map((m) => m.id)).toEqual(["seg_a"]);
  });

  it("resolves for interleaved writers once their own vectors are readable", async () => {
    const binding = new RecordingVectorize();
    binding.autoApplyAfter = null;
    const { options } = fakeTime();
    // The first pause applies both writers' mutations as one batch: processedUpToMutation then
    // names the second writer's, never the first's.
    const index = new VectorizeIndex(binding, {
      ...options,
      sleep: async (ms: number) => {
        binding.apply();
        await options.sleep(ms);
      },
      timeoutMs: 5_000,
    });
    const a = index.upsert(WS, [record("seg_a", "vid_1", [1, 0, 0, 0])]);
    const b = index.upsert("ws_other", [record("seg_b", "vid_2", [0, 1, 0, 0])]);
    await expect(Promise.all([a, b])).resolves.toEqual([undefined, undefined]);
    expect(binding.getByIdsCalls.flat()).toContain("seg_a");
  });

  it("does not take a stale vector of the same id for its own write", async () => {
    const binding = new RecordingVectorize();
    const { options } = fakeTime();
    const index = new VectorizeIndex(binding, { ...options, timeoutMs: 1_000 });
    await index.upsert(WS, [record("seg_a", "vid_1", [1, 0, 0, 0])]);
    binding.autoApplyAfter = null;
    const again = index.upsert(WS, [record("seg_a", "vid_1", [0, 0, 1, 0])]);
    await expect(again).rejects.toBeInstanceOf(VectorizeNotVisibleError);
  });

  it("throws a retryable error when the mutation is not visible in time", async () => {
    const binding = new RecordingVectorize();
    binding.autoApplyAfter = null;
    const { time, options } = fakeTime();
    const index = new VectorizeIndex(binding, { ...options, timeoutMs: 5_000 });
    const failure = index.upsert(WS, [record("seg_a", "vid_1", [1, 0, 0, 0])]);

    await expect(failure).rejects.toBeInstanceOf(VectorizeNotVisibleError);
    await expect(failure).rejects.toMatchObject({ retryable: true });
    expect(time.now).toBe(5_000);
  });

  it("queries the namespace with indexed metadata, $eq for one video and $in for several", async () => {
    const binding = new RecordingVectorize();
    const index = new VectorizeIndex(binding, fakeTime().options);
    await index.upsert(WS, [
      record("seg_a", "vid_1", [1, 0, 0, 0]),
      record("seg_b", "vid_2", [0.9, 0.1, 0, 0]),
      record("seg_c", "vid_3", [0, 1, 0, 0]),
    ]);
    await index.upsert(OTHER, [record("seg_x", "vid_9", [1, 0, 0, 0])]);
    const q = Float32Array.from([1, 0, 0, 0]);

    const all = await index.query(WS, q, { topK: 100 });
    expect(all.map((m) => m.id)).toEqual(["seg_a", "seg_b", "seg_c"]);
    expect(all[0]).toEqual({ id: "seg_a", score: 1, metadata: { video_id: "vid_1" } });
    expect(binding.queries[0]?.options).toEqual({
      topK: 100,
      namespace: WS,
      returnMetadata: "indexed",
    });

    const one = await index.query(WS, q, { topK: 5, videoIds: ["vid_2"] });
    expect(one.map((m) => m.id)).toEqual(["seg_b"]);
    expect(binding.queries[1]?.options?.filter).toEqual({ video_id: { $eq: "vid_2" } });

    const two = await index.query(WS, q, { topK: 5, videoIds: ["vid_3", "vid_2"] });
    expect(two.map((m) => m.id)).toEqual(["seg_b", "seg_c"]);
    expect(binding.queries[2]?.options?.filter).toEqual({ video_id: { $in: ["vid_3", "vid_2"] } });

    expect(await index.query(WS, q, { topK: 5, videoIds: [] })).toEqual([]);
    expect(binding.queries).toHaveLength(3);
  });

  it("splits long video lists so each filter stays under 2 KB, and merges the answers", async () => {
    const binding = new RecordingVectorize();
    const index = new VectorizeIndex(binding, fakeTime().options);
    const videoIds = Array.from(
      { length: 200 },
      (_, i) => `vid_01jz${String(i).padStart(22, "0")}`,
    );
    await index.upsert(
      WS,
      videoIds.map((videoId, i) => record(`seg_${i}`, videoId, [1, i / 100, 0, 0])),
    );
    const matches = await index.query(WS, Float32Array.from([1, 0, 0, 0]), { topK: 10, videoIds });

    expect(binding.queries.length).toBeGreaterThan(1);
    for (const { options } of binding.queries) {
      expect(new TextEncoder().encode(JSON.stringify(options?.filter)).length).toBeLessThan(2048);
    }
    expect(matches.map((m) => m.id)).toEqual(Array.from({ length: 10 }, (_, i) => `seg_${i}`));
  });

  it("fetches video ids for matches whose metadata did not come back", async () => {
    const binding = new RecordingVectorize();
    const index = new VectorizeIndex(binding, fakeTime().options);
    await index.upsert(WS, [record("seg_a", "vid_1", [1, 0, 0, 0])]);
    binding.dropMetadata = true;
    const matches = await index.query(WS, Float32Array.from([1, 0, 0, 0]), { topK: 1 });
    expect(matches).toEqual([{ id: "seg_a", score: 1, metadata: { video_id: "vid_1" } }]);
    expect(binding.getByIdsCalls).toEqual([["seg_a"]]);
  });

  it("deletes by id in batches of 1,000 and waits for the deletion", async () => {
    const binding = new RecordingVectorize();
    const index = new VectorizeIndex(binding, fakeTime().options);
    const ids = Array.from({ length: 1_500 }, (_, i) => `seg_${i}`);
    await index.upsert(
      WS,
      ids.map((id) => record(id, "vid_1", [1, 0, 0, 0])),
    );
    await index.delete(WS, ids);

    expect(binding.deletes.map((batch) => batch.length)).toEqual([1_000, 500]);
    expect(await index.query(WS, Float32Array.from([1, 0, 0, 0]), { topK: 5 })).toEqual([]);
  });

  it("refuses what Vectorize would refuse, before calling it", async () => {
    const binding = new RecordingVectorize();
    const index = new VectorizeIndex(binding, fakeTime().options);
    const q = Float32Array.from([1, 0, 0, 0]);
    await expect(index.query(WS, q, { topK: 101 })).rejects.toThrow(RangeError);
    await expect(index.query(WS, q, { topK: 0 })).rejects.toThrow(RangeError);
    await expect(index.query("w".repeat(65), q, { topK: 1 })).rejects.toThrow(/namespace/);
    await expect(index.upsert(WS, [record("s".repeat(65), "vid_1", [1])])).rejects.toThrow(/id/);
    expect(binding.upserts).toHaveLength(0);
    expect(binding.queries).toHaveLength(0);
  });
});
