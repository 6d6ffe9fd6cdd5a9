import {
  bucketOf,
  type FeatureGroup,
  GRAM,
  mix32,
  PAIR,
  type TextFeatures,
  textFeatures,
  WORD,
} from "../../lib/text/text-features";
import type { FeatureStatsStore } from "./feature-stats";
import type { Embedder, EmbeddingKind } from "./port";

/**
 * 384 dimensions: sign hashing a segment's few hundred features into 384 adds cosine noise
 * of sd ≈ 0.048 (512: 0.041), and 100k int8 vectors take 38 MB of the index's memory
 * (512: 51 MB). Two probes for word and pair features cut the worst single collision from
 * ≈ 0.23 to ≈ 0.15, better than 512 dimensions with one probe.
 */
const DIMENSIONS = 384;
/** Salt of the second probe of word and pair features. */
const SECOND_PROBE = 0x9e3779b9;
/** Share of each group in the vector, after each group is normalised on its own. */
const GROUP_WEIGHTS: Record<FeatureGroup, number> = { [WORD]: 1, [PAIR]: 0.5, [GRAM]: 0.7 };
/**
 * IDF prior: the corpus is taken to hold PRIOR_DOCUMENTS more documents in which any feature
 * appears PRIOR_FREQUENCY times, so a new workspace gets uniform weights and a few learnt
 * documents cannot swing them much.
 */
const PRIOR_DOCUMENTS = 20;
const PRIOR_FREQUENCY = 0.4;
/** A feature in every document still counts a little, so no text embeds to zero. */
const MIN_IDF = 0.05;

/** Smoothed inverse document frequency. */
export function idf(documentFrequency: number, documents: number): number {
  const ratio = (documents + PRIOR_DOCUMENTS + 1) / (documentFrequency + PRIOR_FREQUENCY + 1);
  return Math.max(MIN_IDF, Math.log(ratio));
}

/**
 * A deterministic embedder that needs no model: hashed stemmed words, word pairs and
 * character 3/4-grams, tf (1 + ln tf) × IDF learnt from the workspace's own segments,
 * L2-normalised. Texts with no word embed to the zero vector (cosine 0 with everything).
 */
export class LocalHashEmbedder implements Embedder {
  readonly model = "local-hash@1";
  readonly dimensions = DIMENSIONS;

  constructor(private readonly stats: FeatureStatsStore) {}

  async learn(workspaceId: string, key: string, documents: string[]): Promise<void> {
    const counts = new Map<number, number>();
    for (const document of documents) {
      // Distinct hashes can share a bucket; a document counts once per bucket.
      const buckets = new Set<number>();
      for (const hash of textFeatures(document).hashes) buckets.add(bucketOf(hash));
      for (const bucket of buckets) counts.set(bucket, (counts.get(bucket) ?? 0) + 1);
    }
    const buckets = Uint32Array.from(counts.keys()).sort();
    const perBucket = Uint32Array.from(buckets, (bucket) => counts.get(bucket) ?? 0);
    await this.stats.replace(workspaceId, key, {
      documents: documents.length,
      buckets,
      counts: perBucket,
    });
  }

  async forget(workspaceId: string, key: string): Promise<void> {
    await this.stats.remove(workspaceId, key);
  }

  // Queries and documents share one weighting: both sides of the cosine must agree.
  async embed(workspaceId: string, texts: string[], _kind: EmbeddingKind): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const featureSets = texts.map(textFeatures);
    const distinct = new Set<number>();
    for (const features of featureSets) {
      for (const hash of features.hashes) distinct.add(bucketOf(hash));
    }
    const buckets = Uint32Array.from(distinct).sort();
    const { documents, frequencies } = await this.stats.frequencies(workspaceId, buckets);
    const df = new Map<number, number>();
    for (const [i, bucket] of buckets.entries()) df.set(bucket, frequencies[i] ?? 0);
    return featureSets.map((features) =>
      vectorOf(features, (hash) => idf(df.get(bucketOf(hash)) ?? 0, documents)),
    );
  }
}

/** Weights each feature, normalises each group, hashes into the dimensions with a sign. */
function vectorOf(features: TextFeatures, idfOf: (hash: number) => number): Float32Array {
  const { hashes, groups, counts, boosts } = features;
  const weights = new Float64Array(hashes.length);
  const groupSquares = [0, 0, 0];
  for (let i = 0; i < hashes.length; i++) {
    const group = groups[i] ?? WORD;
    const weight = (1 + Math.log(counts[i] ?? 1)) * (boosts[i] ?? 1) * idfOf(hashes[i] ?? 0);
    weights[i] = weight;
    groupSquares[group] = (groupSquares[group] ?? 0) + weight * weight;
  }
  const scales = groupSquares.map((squares, group) =>
    squares > 0 ? GROUP_WEIGHTS[group as FeatureGroup] / Math.sqrt(squares) : 0,
  );
  const vector = new Float32Array(DIMENSIONS);
  const add = (mixed: number, value: number) => {
    const index = mixed % DIMENSIONS;
    vector[index] = (vector[index] ?? 0) + (mixed >= 0x80000000 ? -value : value);
  };
  for (let i = 0; i < hashes.length; i++) {
    const hash = hashes[i] ?? 0;
    const group = groups[i] ?? WORD;
    const value = (scales[group] ?? 0) * (weights[i] ?? 0);
    if (group === GRAM) {
      add(mix32(hash), value);
    } else {
      // Words and pairs are few and heavy: two probes halve what one collision can add.
      add(mix32(hash), value * Math.SQRT1_2);
      add(mix32((hash ^ SECOND_PROBE) >>> 0), value * Math.SQRT1_2);
    }
  }
  let norm = 0;
  for (const value of vector) norm += value * value;
  if (norm > 0) {
    const inv = 1 / Math.sqrt(norm);
    for (let i = 0; i < DIMENSIONS; i++) vector[i] = (vector[i] ?? 0) * inv;
  }
  return vector;
}
