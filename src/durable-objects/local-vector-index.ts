import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";
import {
  assertContribution,
  FEATURE_CHUNK,
  type FeatureContribution,
  type FeatureFrequencies,
  FeatureFrequencyTable,
  packPairs,
  unpackPairs,
} from "../ports/embedder/feature-stats";
import { PagedVectors } from "../ports/vector-index/local-index/paged-vectors";
import { quantise } from "../ports/vector-index/local-index/quantised-vectors";
import { migrate, readMeta, writeMeta } from "../ports/vector-index/local-index/schema";
import type { VectorMatch, VectorQuery, VectorRecord } from "../ports/vector-index/port";

/** What `stats()` reports, for the benchmark and operators. */
export interface LocalIndexStats {
  count: number;
  /** 0 until the first vector fixes it. */
  dimensions: number;
  /** Bytes held in memory: the open block, cached sealed blocks and IDF chunks. */
  bytes: number;
}

/** Same limits as Vectorize, so local behaviour does not drift from production. */
const MAX_TOP_K = 100;
const MAX_ID_BYTES = 64;
/** Key contributions are split into rows of at most this many (bucket, count) pairs (512 KB). */
const PAIRS_PER_ROW = 1 << 16;

const encoder = new TextEncoder();

/**
 * The local vector index of one workspace (named by the workspace id): int8-quantised
 * vectors in SQLite, searched exactly by brute force in pages with bounded memory
 * (PagedVectors), plus the IDF statistics of the local embedder. Production uses Vectorize.
 */
export class LocalVectorIndex extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  private vectors: PagedVectors | null = null;
  private frequencies: FeatureFrequencyTable | null = null;
  private fixedDimensions: number | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    void ctx.blockConcurrencyWhile(async () => {
      migrate(this.sql);
      const vectors = this.dimensions() === 0 ? null : this.loadedVectors();
      ctx.storage.transactionSync(() => vectors?.placeUnslotted());
    });
  }

  /** Inserts or replaces vectors; answers how many were written. */
  upsert(records: VectorRecord[]): number {
    if (records.length === 0) return 0;
    const fixed = this.dimensions();
    const dimensions = fixed || (records[0]?.values.length ?? 0);
    if (dimensions === 0) throw new RangeError("vectors must have at least one dimension");
    const rows = records.map((record) => validRecord(record, dimensions));
    this.fixedDimensions = dimensions;
    try {
      this.writing((vectors) => {
        writeMeta(this.sql, "dimensions", dimensions);
        vectors.upsert(rows);
      });
    } catch (error) {
      // The first write fixes the dimensions; if it did not land, nothing is fixed yet.
      if (fixed === 0) [this.fixedDimensions, this.vectors] = [null, null];
      throw error;
    }
    return rows.length;
  }

  /** Nearest neighbours by cosine similarity, highest first. */
  query(vector: Float32Array, options: VectorQuery): VectorMatch[] {
    const { topK, videoIds } = options;
    if (!Number.isInteger(topK) || topK < 1 || topK > MAX_TOP_K) {
      throw new RangeError(`topK must be an integer from 1 to ${MAX_TOP_K}`);
    }
    const dimensions = this.dimensions();
    if (dimensions === 0) return [];
    if (vector.length !== dimensions) {
      throw new RangeError(`query has ${vector.length} dimensions, the index ${dimensions}`);
    }
    return this.loadedVectors()
      .search(vector, topK, videoIds)
      .map(({ id, videoId, score }) => ({ id, score, metadata: { video_id: videoId } }));
  }

  /** Deletes vectors by id; answers how many existed. */
  delete(ids: string[]): number {
    if (this.dimensions() === 0) return 0;
    return this.writing((vectors) => vectors.delete(ids));
  }

  /** Replaces the IDF contribution of `key` (a video), so redelivery does not count twice. */
  learnFeatures(key: string, contribution: FeatureContribution): void {
    assertContribution(contribution);
    this.changeFrequencies((table) => {
      this.removeKey(table, key);
      table.apply(contribution, 1);
      for (const [part, pairs] of packPairs(contribution, PAIRS_PER_ROW).entries()) {
        this.sql.exec(
          "INSERT INTO feature_keys (key, part, documents, pairs) VALUES (?, ?, ?, ?)",
          key,
          part,
          contribution.documents,
          pairs.buffer,
        );
      }
    });
  }

  /** Removes the IDF contribution of `key`, if any. */
  forgetFeatures(key: string): void {
    this.changeFrequencies((table) => this.removeKey(table, key));
  }

  /** Document frequencies of these feature buckets, and the number of documents learnt. */
  featureFrequencies(buckets: Uint32Array): FeatureFrequencies {
    return this.loadedFrequencies().lookup(buckets);
  }

  /** Count, dimensions and the bytes held in memory. */
  stats(): LocalIndexStats {
    const vectors = this.dimensions() === 0 ? null : this.loadedVectors();
    return {
      count: vectors?.count ?? 0,
      dimensions: this.dimensions(),
      bytes: (vectors?.bytes() ?? 0) + (this.frequencies?.bytes() ?? 0),
    };
  }

  private dimensions(): number {
    this.fixedDimensions ??= readMeta(this.sql, "dimensions");
    return this.fixedDimensions;
  }

  private loadedVectors(): PagedVectors {
    this.vectors ??= new PagedVectors(this.sql, this.dimensions());
    return this.vectors;
  }

  /** Runs a write of the vectors atomically; on failure what memory holds is reloaded. */
  private writing<T>(write: (vectors: PagedVectors) => T): T {
    const vectors = this.loadedVectors();
    try {
      return this.ctx.storage.transactionSync(() => write(vectors));
    } catch (error) {
      vectors.reset();
      throw error;
    }
  }

  private loadedFrequencies(): FeatureFrequencyTable {
    if (this.frequencies !== null) return this.frequencies;
    const table = new FeatureFrequencyTable();
    for (const row of this.sql.exec<{ chunk: number; counts: ArrayBuffer }>(
      "SELECT chunk, counts FROM feature_df",
    )) {
      table.load(row.chunk, new Uint32Array(row.counts));
    }
    table.documents = readMeta(this.sql, "documents");
    this.frequencies = table;
    return table;
  }

  /** Runs a change of the IDF table and its rows atomically; on failure memory is reloaded. */
  private changeFrequencies(change: (table: FeatureFrequencyTable) => void): void {
    const table = this.loadedFrequencies();
    try {
      this.ctx.storage.transactionSync(() => {
        change(table);
        this.persist(table);
      });
    } catch (error) {
      this.frequencies = null;
      throw error;
    }
  }

  private removeKey(table: FeatureFrequencyTable, key: string): void {
    const rows = this.sql
      .exec<{ documents: number; pairs: ArrayBuffer }>(
        "SELECT documents, pairs FROM feature_keys WHERE key = ? ORDER BY part",
        key,
      )
      .toArray();
    for (const [index, row] of rows.entries()) {
      // Every part repeats the key's document count; subtract it once.
      const documents = index === 0 ? row.documents : 0;
      table.apply({ documents, ...unpackPairs(new Uint32Array(row.pairs)) }, -1);
    }
    this.sql.exec("DELETE FROM feature_keys WHERE key = ?", key);
  }

  private persist(table: FeatureFrequencyTable): void {
    for (const [chunk, counts] of table.takeDirty()) {
      this.sql.exec(
        "INSERT INTO feature_df (chunk, counts) VALUES (?, ?) ON CONFLICT (chunk) DO UPDATE SET counts = excluded.counts",
        chunk,
        counts.buffer.slice(counts.byteOffset, counts.byteOffset + FEATURE_CHUNK * 4),
      );
    }
    writeMeta(this.sql, "documents", table.documents);
  }
}

function validRecord(record: VectorRecord, dimensions: number) {
  const { id, values, metadata } = record;
  if (typeof id !== "string" || id === "" || encoder.encode(id).length > MAX_ID_BYTES) {
    throw new RangeError(`vector id must be 1 to ${MAX_ID_BYTES} bytes`);
  }
  if (typeof metadata?.video_id !== "string" || metadata.video_id === "") {
    throw new TypeError(`vector ${id} has no metadata.video_id`);
  }
  if (values.length !== dimensions) {
    throw new RangeError(`vector ${id} has ${values.length} dimensions, the index ${dimensions}`);
  }
  for (const value of values) {
    if (!Number.isFinite(value)) throw new RangeError(`vector ${id} has a non-finite value`);
  }
  return { id, videoId: metadata.video_id, quantised: quantise(values) };
}
