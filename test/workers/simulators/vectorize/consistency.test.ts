import { describe, expect, it } from "vitest";
import { type Clock, simulator, vec } from "./world";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("Vectorize simulator: eventual consistency through mutation ids", () => {
  it("shows a write only after the delay, and describe() names the last mutation applied", async () => {
    const clock: Clock = { now: Date.parse("2026-11-25T10:00:00Z") };
    const index = simulator(clock);
    const first = await index.upsert([vec("a", [1, 0, 0, 0])]);
    const second = await index.upsert([vec("b", [0, 1, 0, 0])]);
    expect(first.mutationId).toMatch(UUID);
    expect(second.mutationId).not.toBe(first.mutationId);
    expect(await index.getByIds(["a", "b"])).toEqual([]);
    expect((await index.query([1, 0, 0, 0], { namespace: "ws_1" })).matches).toEqual([]);
    expect(await index.describe()).toMatchObject({ vectorCount: 0, processedUpToMutation: null });
    clock.now += 2_000;
    expect(await index.describe()).toEqual({
      dimensions: 4,
      vectorCount: 2,
      processedUpToMutation: second.mutationId,
      processedUpToDatetime: "2026-11-25T10:00:02.000Z",
    });
    expect((await index.getByIds(["a"]))[0]).toMatchObject({
      id: "a",
      namespace: "ws_1",
      values: [1, 0, 0, 0],
    });
  });

  it("insert keeps an existing id, upsert replaces it whole, delete removes it", async () => {
    const clock: Clock = { now: 0 };
    const index = simulator(clock, { visibilityDelayMs: 10 });
    await index.upsert([vec("a", [1, 0, 0, 0], "vid_1")]);
    await index.insert([vec("a", [0, 1, 0, 0], "vid_2")]);
    clock.now += 10;
    expect((await index.getByIds(["a"]))[0]?.metadata).toEqual({ video_id: "vid_1" });
    await index.upsert([{ id: "a", values: [0, 0, 1, 0], namespace: "ws_1" }]);
    clock.now += 10;
    const [replaced] = await index.getByIds(["a"]);
    expect(replaced?.values).toEqual([0, 0, 1, 0]);
    expect(replaced?.metadata).toBeUndefined();
    const deleted = await index.deleteByIds(["a"]);
    expect(await index.getByIds(["a"])).toHaveLength(1);
    clock.now += 10;
    expect(await index.getByIds(["a"])).toEqual([]);
    expect((await index.describe()).processedUpToMutation).toBe(deleted.mutationId);
  });
});
