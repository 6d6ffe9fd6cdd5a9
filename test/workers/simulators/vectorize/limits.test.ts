import { describe, expect, it } from "vitest";
import { simulator, vec } from "./world";

describe("Vectorize simulator: documented limits", () => {
  it("refuses vectors Vectorize refuses", async () => {
    const index = simulator({ now: 0 });
    await expect(index.upsert([vec("a", [1, 2, 3])])).rejects.toThrow(
      /3 dimensions; the index has 4/,
    );
    await expect(index.upsert([vec("x".repeat(65), [1, 0, 0, 0])])).rejects.toThrow(
      /1 to 64 bytes/,
    );
    await expect(index.upsert([vec("é".repeat(33), [1, 0, 0, 0])])).rejects.toThrow(
      /1 to 64 bytes/,
    );
    const fat = { ...vec("a", [1, 0, 0, 0]), metadata: { note: "x".repeat(10 * 1024) } };
    await expect(index.upsert([fat])).rejects.toThrow(/10 KiB/);
    const batch = Array.from({ length: 1001 }, (_, i) => vec(`v${i}`, [1, 0, 0, 0]));
    await expect(index.upsert(batch)).rejects.toThrow(/1 to 1000 vectors/);
    await expect(index.upsert(batch.slice(0, 1000))).resolves.toMatchObject({
      mutationId: expect.any(String),
    });
    await expect(index.upsert([vec("a", [1, 0, 0, 0], "v", "n".repeat(65))])).rejects.toThrow(
      /namespace/,
    );
    await expect(index.upsert([vec("a", [Number.NaN, 0, 0, 0])])).rejects.toThrow(/finite/);
  });

  it("caps topK at 20 with values or all metadata, and at 100 otherwise", async () => {
    const index = simulator({ now: 0 });
    const q = [1, 0, 0, 0];
    await expect(index.query(q, { topK: 100, returnMetadata: "indexed" })).resolves.toMatchObject({
      count: 0,
    });
    await expect(index.query(q, { topK: 101 })).rejects.toThrow(/1 to 100/);
    await expect(index.query(q, { topK: 21, returnValues: true })).rejects.toThrow(/1 to 20/);
    await expect(index.query(q, { topK: 21, returnMetadata: "all" })).rejects.toThrow(/1 to 20/);
    await expect(index.query(q, { topK: 20, returnMetadata: "all" })).resolves.toMatchObject({
      count: 0,
    });
    await expect(index.query(q, { topK: 0 })).rejects.toThrow(/topK/);
  });

  it("checks filters as documented: size, keys and operators", async () => {
    const index = simulator({ now: 0 });
    const q = [1, 0, 0, 0];
    const ids = Array.from({ length: 80 }, (_, i) => `vid_${String(i).padStart(20, "0")}`);
    await expect(index.query(q, { filter: { video_id: { $in: ids } } })).rejects.toThrow(
      /2048 bytes/,
    );
    await expect(
      index.query(q, { filter: { video_id: { $in: ids.slice(0, 40) } } }),
    ).resolves.toBeDefined();
    await expect(index.query(q, { filter: {} })).rejects.toThrow(/empty/);
    await expect(
      index.query(q, { filter: { $or: [] } as VectorizeVectorMetadataFilter }),
    ).rejects.toThrow(/key/);
    const like = { video_id: { $like: "vid" } } as unknown as VectorizeVectorMetadataFilter;
    await expect(index.query(q, { filter: like })).rejects.toThrow(/operator \$like/);
    await expect(index.query(q, { filter: { 'a"b': 1 } })).rejects.toThrow(/key/);
  });
});
