import { describe, expect, it } from "vitest";
import { VectorizeIndex } from "../../../src/ports/vector-index/vectorize";
import documented from "../../fixtures/contracts/vectorize/replies.json";
import { RecordingVectorize } from "../search-ports/recording-fakes";
import { departures } from "./conforms";

/** What every reply must carry, by path (metadata may be left out of matches and vectors). */
const REQUIRED = {
  mutation: { required: { $: ["mutationId"] } },
  query: {
    required: { $: ["count", "matches"], "$.matches[]": ["id", "score"] },
    free: ["$.matches[].metadata"],
  },
  describe: {
    required: {
      $: ["dimensions", "vectorCount", "processedUpToMutation", "processedUpToDatetime"],
    },
  },
  vectors: { required: { "$[]": ["id", "values"] }, free: ["$[].metadata"] },
};

const vector = (id: string, videoId: string, values = [0.1, 0.2, 0.3, 0.4]) => ({
  id,
  values: new Float32Array(values),
  metadata: { video_id: videoId },
});

describe("Vectorize replies against the documented shapes", () => {
  it("the recording fake answers every call in the documented shape", async () => {
    const fake = new RecordingVectorize();
    const mutation = await fake.upsert([{ ...vector("seg_1", "vid_1"), namespace: "ws_1" }]);
    expect(departures(mutation, documented.upsert, REQUIRED.mutation)).toEqual([]);
    const info = await fake.describe();
    expect(departures(info, documented.describe, REQUIRED.describe)).toEqual([]);
    const matches = await fake.query([0.1, 0.2, 0.3, 0.4], {
      topK: 3,
      namespace: "ws_1",
      returnMetadata: "indexed",
    });
    expect(matches.matches.length).toBe(1);
    expect(departures(matches, documented.query, REQUIRED.query)).toEqual([]);
    const vectors = await fake.getByIds(["seg_1"]);
    expect(departures(vectors, documented.getByIds, REQUIRED.vectors)).toEqual([]);
    const deleted = await fake.deleteByIds(["seg_1"]);
    expect(departures(deleted, documented.upsert, REQUIRED.mutation)).toEqual([]);
  });

  it("a reply the documentation does not show is caught", () => {
    expect(
      departures({ ...documented.describe, processedUpToDatetime: 0 }, documented.describe),
    ).toEqual(["$.processedUpToDatetime: number, documented string"]);
    expect(
      departures({ count: 1, matches: [{ id: "a" }] }, documented.query, REQUIRED.query),
    ).toEqual(["$.matches[0].score: missing"]);
    expect(departures({ ids: ["a"] }, documented.upsert, REQUIRED.mutation)).toEqual([
      "$.mutationId: missing",
      "$.ids: not documented",
    ]);
  });

  it("the adapter waits on the documented describe reply and maps documented matches", async () => {
    const { mutationId } = documented.upsert;
    const binding = {
      upsert: async () => ({ mutationId }),
      deleteByIds: async () => ({ mutationId }),
      // Typed as numbers by workers-types; documented (and sent) as a UUID and an ISO string.
      describe: async () =>
        ({
          ...documented.describe,
          processedUpToMutation: mutationId,
        }) as unknown as VectorizeIndexInfo,
      getByIds: async () => [],
      query: async () => ({
        count: 2,
        matches: documented.query.matches.slice(0, 2).map((m, i) => ({
          id: m.id,
          score: m.score,
          metadata: { video_id: `vid_${i}` },
        })),
      }),
    };
    const index = new VectorizeIndex(binding, { sleep: async () => {} });
    await expect(index.upsert("ws_1", [vector("seg_1", "vid_1")])).resolves.toBeUndefined();
    expect(await index.query("ws_1", new Float32Array(4), { topK: 2 })).toEqual([
      { id: "3", score: 0.52920616, metadata: { video_id: "vid_1" } },
      { id: "4", score: 0.46348256, metadata: { video_id: "vid_0" } },
    ]);
  });
});
