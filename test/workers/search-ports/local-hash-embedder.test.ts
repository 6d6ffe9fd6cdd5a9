import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { stemEnglish, tokenize } from "../../../src/lib/text/text-features";
import { InMemoryFeatureStats } from "../../../src/ports/embedder/feature-stats";
import { LocalHashEmbedder } from "../../../src/ports/embedder/local-hash";
import { LocalIndexFeatureStats } from "../../../src/ports/vector-index/local-do";

const WS = "ws_embedder";

function cosine(a: Float32Array | undefined, b: Float32Array | undefined): number {
  if (a === undefined || b === undefined) throw new Error("missing vector");
  return a.reduce((sum, v, i) => sum + v * (b[i] ?? 0), 0);
}

async function embedOne(embedder: LocalHashEmbedder, text: string, ws = WS): Promise<Float32Array> {
  const [vector] = await embedder.embed(ws, [text], "document");
  if (vector === undefined) throw new Error("no vector");
  return vector;
}

/** A corpus in which "warehouse" is in every document and nothing else repeats much. */
const warehouseCorpus = Array.from(
  { length: 60 },
  (_, i) =>
    `warehouse clip ${i}: ${["pallets", "ladders", "boxes", "lights", "doors"][i % 5]} seen`,
);

describe("LocalHashEmbedder", () => {
  it("is deterministic, L2-normalised and of the declared size", async () => {
    const a = new LocalHashEmbedder(new InMemoryFeatureStats());
    const b = new LocalHashEmbedder(new InMemoryFeatureStats());
    const text = "A forklift lifts pallets near loading dock 4";
    const [x, y] = await a.embed(WS, [text, text], "document");
    expect(a.model).toBe("local-hash@1");
    expect(x).toHaveLength(a.dimensions);
    expect(Array.from(x ?? [])).toEqual(Array.from(await embedOne(b, text)));
    expect(Array.from(x ?? [])).toEqual(Array.from(y ?? []));
    expect(cosine(x, x)).toBeCloseTo(1, 5);
    const [query] = await a.embed(WS, [text], "query");
    expect(Array.from(query ?? [])).toEqual(Array.from(x ?? []));
  });

  it("ranks related sentences above unrelated ones", async () => {
    const embedder = new LocalHashEmbedder(new InMemoryFeatureStats());
    const [operators, drivers, soup] = await embedder.embed(
      WS,
      [
        "forklift operators wear vests",
        "people driving forklifts must wear high-visibility vests",
        "the soup needs more salt",
      ],
      "document",
    );
    expect(cosine(operators, drivers)).toBeGreaterThan(0.3);
    expect(cosine(operators, drivers)).toBeGreaterThan(cosine(operators, soup) + 0.25);
    expect(cosine(drivers, soup)).toBeLessThan(0.1);
  });

  it("treats plurals and inflections as the same word", async () => {
    const embedder = new LocalHashEmbedder(new InMemoryFeatureStats());
    const [one, many, other] = await embedder.embed(
      WS,
      ["forklift", "Forklifts", "ladder"],
      "query",
    );
    expect(cosine(one, many)).toBeGreaterThan(0.85);
    expect(cosine(one, other)).toBeLessThan(0.2);
    const [driving, drives] = await embedder.embed(
      WS,
      ["driving trucks", "drives a truck"],
      "query",
    );
    expect(cosine(driving, drives)).toBeGreaterThan(0.6);
    expect(
      ["forklifts", "driving", "wearing", "batteries", "agreed", "hopped"].map(stemEnglish),
    ).toEqual(["forklift", "drive", "wear", "battery", "agree", "hop"]);
    expect(tokenize("Driver's ＦＵＬＬ-width café, 2024!")).toEqual([
      "drivers",
      "full",
      "width",
      "café",
      "2024",
    ]);
  });

  it("lowers the influence of a word found in every learnt document", async () => {
    const stats = new InMemoryFeatureStats();
    const embedder = new LocalHashEmbedder(stats);
    const pair = async () =>
      cosine(
        await embedOne(embedder, "warehouse forklift"),
        await embedOne(embedder, "warehouse pallets"),
      );
    const before = await pair();
    await embedder.learn(WS, "vid_corpus", warehouseCorpus);
    const after = await pair();
    expect(after).toBeLessThan(before - 0.15);
    // Another workspace learnt nothing: its weights are unchanged.
    const elsewhere = cosine(
      await embedOne(embedder, "warehouse forklift", "ws_other"),
      await embedOne(embedder, "warehouse pallets", "ws_other"),
    );
    expect(elsewhere).toBeCloseTo(before, 6);
  });

  it("counts a key once however often it is learnt, and forgets it", async () => {
    const stats = new InMemoryFeatureStats();
    const embedder = new LocalHashEmbedder(stats);
    const fresh = await embedOne(embedder, "warehouse forklift");
    await embedder.learn(WS, "vid_1", warehouseCorpus);
    const once = await embedOne(embedder, "warehouse forklift");
    await embedder.learn(WS, "vid_1", warehouseCorpus);
    expect(Array.from(await embedOne(embedder, "warehouse forklift"))).toEqual(Array.from(once));
    await embedder.learn(WS, "vid_2", warehouseCorpus);
    expect(Array.from(await embedOne(embedder, "warehouse forklift"))).not.toEqual(
      Array.from(once),
    );
    await embedder.forget(WS, "vid_2");
    expect(Array.from(await embedOne(embedder, "warehouse forklift"))).toEqual(Array.from(once));
    await embedder.forget(WS, "vid_1");
    await embedder.forget(WS, "vid_never");
    expect(Array.from(await embedOne(embedder, "warehouse forklift"))).toEqual(Array.from(fresh));
  });

  it("embeds texts without words to the zero vector", async () => {
    const embedder = new LocalHashEmbedder(new InMemoryFeatureStats());
    const [empty, punctuation] = await embedder.embed(WS, ["", " -- !! "], "query");
    expect(cosine(empty, empty)).toBe(0);
    expect(cosine(punctuation, punctuation)).toBe(0);
    expect(await embedder.embed(WS, [], "query")).toEqual([]);
  });
});

describe("LocalHashEmbedder with statistics in the LocalVectorIndex object", () => {
  const embedder = new LocalHashEmbedder(new LocalIndexFeatureStats(env.LOCAL_INDEX));
  const local = new LocalHashEmbedder(new InMemoryFeatureStats());

  it("matches the in-memory store, per key, and survives a restart", async () => {
    const ws = `ws_stats_${crypto.randomUUID()}`;
    await embedder.learn(ws, "vid_1", warehouseCorpus);
    await embedder.learn(ws, "vid_1", warehouseCorpus);
    await embedder.learn(ws, "vid_2", ["forklift training day", "forklift battery swap"]);
    await local.learn(ws, "vid_1", warehouseCorpus);
    await local.learn(ws, "vid_2", ["forklift training day", "forklift battery swap"]);
    const text = "warehouse forklift battery";
    const expected = Array.from(await embedOne(local, text, ws));
    expect(Array.from(await embedOne(embedder, text, ws))).toEqual(expected);

    const stub = env.LOCAL_INDEX.getByName(ws);
    await runInDurableObject(stub, (_, state) => state.abort("restart")).catch(() => undefined);
    expect(Array.from(await embedOne(embedder, text, ws))).toEqual(expected);

    await embedder.forget(ws, "vid_2");
    await local.forget(ws, "vid_2");
    expect(Array.from(await embedOne(embedder, text, ws))).toEqual(
      Array.from(await embedOne(local, text, ws)),
    );
  });

  it("stores contributions larger than one row and removes them exactly", async () => {
    const ws = `ws_stats_${crypto.randomUUID()}`;
    const stub = env.LOCAL_INDEX.getByName(ws);
    const buckets = Uint32Array.from({ length: 150_000 }, (_, i) => i * 6);
    const counts = new Uint32Array(buckets.length).fill(2);
    await stub.learnFeatures("vid_big", { documents: 3, buckets, counts });
    await stub.learnFeatures("vid_big", { documents: 3, buckets, counts });
    const probe = Uint32Array.from([0, 6, 899_994, 1]);
    expect(await stub.featureFrequencies(probe)).toEqual({
      documents: 3,
      frequencies: Uint32Array.from([2, 2, 2, 0]),
    });
    await stub.forgetFeatures("vid_big");
    expect(await stub.featureFrequencies(probe)).toEqual({
      documents: 0,
      frequencies: new Uint32Array(4),
    });
    // Awaited inside a plain async function: a bare RPC promise given to expect() is also
    // reported as an unhandled rejection.
    const outOfRange = async () => {
      const contribution = {
        documents: 1,
        buckets: Uint32Array.of(1 << 20),
        counts: Uint32Array.of(1),
      };
      await stub.learnFeatures("vid_bad", contribution);
    };
    await expect(outOfRange()).rejects.toThrow(/bucket/);
  });
});
