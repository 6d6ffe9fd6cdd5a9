import { describe, expect, it } from "vitest";
import {
  VectorizeIndex,
  VectorizeNotVisibleError,
} from "../../../../src/ports/vector-index/vectorize";
import documented from "../../../fixtures/contracts/vectorize/replies.json";
import { departures } from "../../contracts/conforms";
import { type Clock, simulator, vec } from "./world";

const record = (id: string, values: number[], videoId: string) => ({
  id,
  values: new Float32Array(values),
  metadata: { video_id: videoId },
});

/** The production adapter over the simulator; its polling sleeps move the shared clock. */
function adapter(clock: Clock, visibilityDelayMs: number, timeoutMs = 30_000) {
  const binding = simulator(clock, { visibilityDelayMs });
  const sleep = async (ms: number) => {
    clock.now += ms;
  };
  return {
    binding,
    index: new VectorizeIndex(binding, { sleep, now: () => clock.now, timeoutMs }),
  };
}

describe("The production Vectorize adapter over the simulator", () => {
  it("waits out the visibility delay on writes, then finds the vectors by video", async () => {
    const clock: Clock = { now: 0 };
    const { index } = adapter(clock, 3_000);
    await index.upsert("ws_1", [
      record("seg_a", [1, 0, 0, 0], "vid_1"),
      record("seg_b", [0, 1, 0, 0], "vid_2"),
    ]);
    expect(clock.now).toBeGreaterThanOrEqual(3_000);
    expect(await index.query("ws_1", new Float32Array([1, 0.2, 0, 0]), { topK: 100 })).toEqual([
      {
        id: "seg_a",
        score: expect.closeTo(1 / Math.sqrt(1.04), 5),
        metadata: { video_id: "vid_1" },
      },
      {
        id: "seg_b",
        score: expect.closeTo(0.2 / Math.sqrt(1.04), 5),
        metadata: { video_id: "vid_2" },
      },
    ]);
    expect(
      await index.query("ws_1", new Float32Array([1, 0, 0, 0]), { topK: 5, videoIds: ["vid_2"] }),
    ).toEqual([expect.objectContaining({ id: "seg_b" })]);
    expect(await index.query("ws_2", new Float32Array([1, 0, 0, 0]), { topK: 5 })).toEqual([]);
    await index.delete("ws_1", ["seg_a"]);
    expect(
      (await index.query("ws_1", new Float32Array([1, 0, 0, 0]), { topK: 5 })).map((m) => m.id),
    ).toEqual(["seg_b"]);
  });

  it("gives up with a retryable error when a write stays invisible past its wait", async () => {
    const clock: Clock = { now: 0 };
    const { index } = adapter(clock, 60_000, 10_000);
    await expect(
      index.upsert("ws_1", [record("seg_a", [1, 0, 0, 0], "vid_1")]),
    ).rejects.toBeInstanceOf(VectorizeNotVisibleError);
  });

  it("answers every call in the documented reply shapes", async () => {
    const clock: Clock = { now: 0 };
    const binding = simulator(clock, { visibilityDelayMs: 0 });
    const upserted = await binding.upsert([vec("a", [1, 0, 0, 0])]);
    const inserted = await binding.insert([vec("b", [0, 1, 0, 0])]);
    const mutation = { required: { $: ["mutationId"] } };
    expect(departures(upserted, documented.upsert, mutation)).toEqual([]);
    expect(departures(inserted, documented.insert, mutation)).toEqual([]);
    const info = await binding.describe();
    expect(
      departures(info, documented.describe, {
        required: {
          $: ["dimensions", "vectorCount", "processedUpToMutation", "processedUpToDatetime"],
        },
      }),
    ).toEqual([]);
    const matches = await binding.query([1, 0, 0, 0], {
      topK: 2,
      returnValues: true,
      returnMetadata: "all",
    });
    expect(matches.count).toBe(2);
    const queryRules = {
      required: { $: ["count", "matches"], "$.matches[]": ["id", "score"] },
      free: ["$.matches[].metadata"],
    };
    expect(departures(matches, documented.query, queryRules)).toEqual([]);
    const vectors = await binding.getByIds(["a", "b"]);
    expect(vectors).toHaveLength(2);
    expect(
      departures(vectors, documented.getByIds, {
        required: { "$[]": ["id", "values"] },
        free: ["$[].metadata"],
      }),
    ).toEqual([]);
    expect(departures(await binding.deleteByIds(["a"]), documented.upsert, mutation)).toEqual([]);
  });
});
