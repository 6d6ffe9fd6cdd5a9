import { FEATURE_BUCKETS } from "../../lib/text/text-features";
/** Buckets per persisted chunk: a learn rewrites only the 32 KB chunks it touched. */
export const FEATURE_CHUNK = 1 << 13;

/** What one key (a video) adds to the document frequencies: per bucket, how many of its documents have it. */
export interface FeatureContribution {
  documents: number;
  /** Distinct buckets, each < FEATURE_BUCKETS. */
  buckets: Uint32Array;
  /** Documents of this key holding the bucket at the same position. */
  counts: Uint32Array;
}

/** Document frequencies of the asked buckets (same order), and the corpus size. */
export interface FeatureFrequencies {
  documents: number;
  frequencies: Uint32Array;
}

/**
 * Where the local embedder keeps per-workspace IDF statistics: the workspace's
 * LocalVectorIndex Durable Object in the Worker, a plain map in unit tests.
 */
export interface FeatureStatsStore {
  /** Replaces the contribution of `key` (idempotent: the same key twice counts once). */
  replace(workspaceId: string, key: string, contribution: FeatureContribution): Promise<void>;
  /** Removes the contribution of `key`, if any. */
  remove(workspaceId: string, key: string): Promise<void>;
  /** Document frequencies of these buckets. */
  frequencies(workspaceId: string, buckets: Uint32Array): Promise<FeatureFrequencies>;
}

/** Checks a contribution's shape before it is counted (it crosses an RPC boundary). */
export function assertContribution(contribution: FeatureContribution): void {
  const { documents, buckets, counts } = contribution;
  if (!Number.isInteger(documents) || documents < 0) throw new RangeError("documents must be ≥ 0");
  if (buckets.length !== counts.length) throw new RangeError("buckets and counts differ in length");
  for (let i = 0; i < buckets.length; i++) {
    if ((buckets[i] ?? FEATURE_BUCKETS) >= FEATURE_BUCKETS)
      throw new RangeError("bucket out of range");
    if ((counts[i] ?? 0) > documents) throw new RangeError("a count exceeds the documents");
  }
}

/** Interleaves (bucket, count) pairs for storage, `perPart` pairs per array (at least one array). */
export function packPairs(contribution: FeatureContribution, perPart: number): Uint32Array[] {
  const { buckets, counts } = contribution;
  const parts: Uint32Array[] = [];
  for (let start = 0; start < buckets.length || parts.length === 0; start += perPart) {
    const end = Math.min(buckets.length, start + perPart);
    const pairs = new Uint32Array(2 * (end - start));
    for (let i = start; i < end; i++) {
      pairs[2 * (i - start)] = buckets[i] ?? 0;
      pairs[2 * (i - start) + 1] = counts[i] ?? 0;
    }
    parts.push(pairs);
  }
  return parts;
}

/** The inverse of one `packPairs` part. */
export function unpackPairs(pairs: Uint32Array): { buckets: Uint32Array; counts: Uint32Array } {
  const buckets = new Uint32Array(pairs.length >> 1);
  const counts = new Uint32Array(pairs.length >> 1);
  for (let i = 0; i < buckets.length; i++) {
    buckets[i] = pairs[2 * i] ?? 0;
    counts[i] = pairs[2 * i + 1] ?? 0;
  }
  return { buckets, counts };
}

/**
 * Document frequency per bucket, stored sparsely in chunks (a small workspace touches few),
 * with the chunks changed since the last `takeDirty` remembered for persistence.
 */
export class FeatureFrequencyTable {
  documents = 0;
  private readonly chunks = new Map<number, Uint32Array>();
  private readonly dirty = new Set<number>();

  /** Installs a persisted chunk. */
  load(chunk: number, counts: Uint32Array): void {
    this.chunks.set(chunk, counts);
  }

  /** Adds (sign 1) or removes (sign −1) a contribution. */
  apply(contribution: FeatureContribution, sign: 1 | -1): void {
    const { buckets, counts } = contribution;
    for (let i = 0; i < buckets.length; i++) {
      const bucket = buckets[i] ?? 0;
      const chunk = Math.floor(bucket / FEATURE_CHUNK);
      let values = this.chunks.get(chunk);
      if (values === undefined) {
        values = new Uint32Array(FEATURE_CHUNK);
        this.chunks.set(chunk, values);
      }
      const at = bucket % FEATURE_CHUNK;
      values[at] = Math.max(0, (values[at] ?? 0) + sign * (counts[i] ?? 0));
      this.dirty.add(chunk);
    }
    this.documents = Math.max(0, this.documents + sign * contribution.documents);
  }

  /** Frequencies of these buckets, in order. */
  lookup(buckets: Uint32Array): FeatureFrequencies {
    const frequencies = new Uint32Array(buckets.length);
    for (let i = 0; i < buckets.length; i++) {
      const bucket = buckets[i] ?? 0;
      frequencies[i] =
        this.chunks.get(Math.floor(bucket / FEATURE_CHUNK))?.[bucket % FEATURE_CHUNK] ?? 0;
    }
    return { documents: this.documents, frequencies };
  }

  /** The chunks changed since the last call, to be written back. */
  takeDirty(): Array<[number, Uint32Array]> {
    const out: Array<[number, Uint32Array]> = [];
    for (const chunk of this.dirty) {
      const values = this.chunks.get(chunk);
      if (values !== undefined) out.push([chunk, values]);
    }
    this.dirty.clear();
    return out;
  }

  /** Bytes held by the chunks. */
  bytes(): number {
    return this.chunks.size * FEATURE_CHUNK * 4;
  }
}

/** Per-workspace statistics in a map: for unit tests and anything without a Durable Object. */
export class InMemoryFeatureStats implements FeatureStatsStore {
  private readonly workspaces = new Map<
    string,
    { table: FeatureFrequencyTable; keys: Map<string, FeatureContribution> }
  >();

  async replace(
    workspaceId: string,
    key: string,
    contribution: FeatureContribution,
  ): Promise<void> {
    assertContribution(contribution);
    const workspace = this.workspace(workspaceId);
    const previous = workspace.keys.get(key);
    if (previous !== undefined) workspace.table.apply(previous, -1);
    // Copied: the caller keeps its arrays.
    const kept = {
      ...contribution,
      buckets: contribution.buckets.slice(),
      counts: contribution.counts.slice(),
    };
    workspace.table.apply(kept, 1);
    workspace.keys.set(key, kept);
  }

  async remove(workspaceId: string, key: string): Promise<void> {
    const workspace = this.workspace(workspaceId);
    const previous = workspace.keys.get(key);
    if (previous === undefined) return;
    workspace.table.apply(previous, -1);
    workspace.keys.delete(key);
  }

  async frequencies(workspaceId: string, buckets: Uint32Array): Promise<FeatureFrequencies> {
    return this.workspace(workspaceId).table.lookup(buckets);
  }

  private workspace(workspaceId: string) {
    let workspace = this.workspaces.get(workspaceId);
    if (workspace === undefined) {
      workspace = { table: new FeatureFrequencyTable(), keys: new Map() };
      this.workspaces.set(workspaceId, workspace);
    }
    return workspace;
  }
}
