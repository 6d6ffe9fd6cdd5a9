import { describe, expect, it } from "vitest";
import { type Clock, simulator, vec } from "./world";

async function seeded() {
  const clock: Clock = { now: 0 };
  const index = simulator(clock, { visibilityDelayMs: 0 });
  await index.upsert([
    vec("near", [1, 0.1, 0, 0], "vid_1"),
    vec("mid", [1, 1, 0, 0], "vid_2"),
    vec("far", [-1, 0, 0, 0], "vid_1"),
    {
      ...vec("other", [1, 0, 0, 0], "vid_9", "ws_2"),
      metadata: { video_id: "vid_9", title: "x".repeat(80) },
    },
  ]);
  return index;
}

describe("Vectorize simulator: queries", () => {
  it("scores by cosine similarity within the namespace, highest first", async () => {
    const index = await seeded();
    const { count, matches } = await index.query([2, 0, 0, 0], { namespace: "ws_1", topK: 3 });
    expect(count).toBe(3);
    expect(matches.map((m) => m.id)).toEqual(["near", "mid", "far"]);
    expect(matches[0]?.score).toBeCloseTo(1 / Math.sqrt(1.01), 6);
    expect(matches[1]?.score).toBeCloseTo(Math.SQRT1_2, 6);
    expect(matches[2]?.score).toBeCloseTo(-1, 6);
    expect(matches[0]).not.toHaveProperty("metadata");
    expect(matches[0]).not.toHaveProperty("values");
  });

  it("filters through metadata indexes only, with $eq, $ne, $in and $nin", async () => {
    const index = await seeded();
    const ids = async (filter: VectorizeVectorMetadataFilter) =>
      (await index.query([1, 0, 0, 0], { namespace: "ws_1", topK: 10, filter })).matches
        .map((m) => m.id)
        .sort();
    expect(await ids({ video_id: "vid_1" })).toEqual(["far", "near"]);
    expect(await ids({ video_id: { $ne: "vid_1" } })).toEqual(["mid"]);
    expect(await ids({ video_id: { $in: ["vid_2", "vid_1"] } })).toEqual(["far", "mid", "near"]);
    expect(await ids({ video_id: { $nin: ["vid_1"] } })).toEqual(["mid"]);
    // No metadata index on `title`: Vectorize filters through indexes, so nothing matches.
    expect(await ids({ title: { $ne: "y" } })).toEqual([]);
  });

  it("returns indexed metadata cut to 64 bytes, all metadata, and float32 values", async () => {
    const index = await seeded();
    const indexed = await index.query([1, 0, 0, 0], {
      namespace: "ws_2",
      returnMetadata: "indexed",
    });
    expect(indexed.matches[0]?.metadata).toEqual({ video_id: "vid_9" });
    const all = await index.query([1, 0, 0, 0], {
      namespace: "ws_2",
      returnMetadata: "all",
      returnValues: true,
    });
    expect(all.matches[0]?.metadata).toEqual({ video_id: "vid_9", title: "x".repeat(80) });
    const [near] = await index.getByIds(["near"]);
    expect(near?.values).toEqual([1, Math.fround(0.1), 0, 0]);
  });
});
