import { checkFilter, passes } from "./filter";
import {
  checkId,
  checkMetadata,
  checkNamespace,
  checkValues,
  indexedString,
  VECTORIZE_LIMITS as L,
  VectorizeLimitError,
} from "./limits";
import { applyDue, queue } from "./pending";
import {
  cosine,
  type Mutation,
  type Row,
  SCHEMA,
  type SimulatedIndexConfig,
  type WireQueryOptions,
} from "./types";

type Metadata = Record<string, VectorizeVectorMetadata>;

/**
 * A Vectorize index in Durable Object SQLite: writes are accepted with a mutation id and applied
 * in order once their delay has passed (mutation ids are random UUIDs, not ordered); reads see
 * applied writes only. Limits are checked when a call arrives, as the binding's are.
 */
export class SimulatedVectorIndex {
  private readonly indexed: ReadonlySet<string>;

  constructor(
    private readonly sql: SqlStorage,
    private readonly config: SimulatedIndexConfig,
    private readonly now: () => number = Date.now,
  ) {
    if (
      !Number.isInteger(config.dimensions) ||
      config.dimensions < 1 ||
      config.dimensions > L.maxDimensions
    ) {
      throw new VectorizeLimitError("an index has 1 to 1536 dimensions");
    }
    if (config.metadataIndexes.length > L.maxMetadataIndexes) {
      throw new VectorizeLimitError("an index has at most 10 metadata indexes");
    }
    this.indexed = new Set(config.metadataIndexes);
    for (const statement of SCHEMA) sql.exec(statement);
    const stored = this.meta("dimensions");
    if (stored === null) this.setMeta("dimensions", String(config.dimensions));
    else if (Number(stored) !== config.dimensions) {
      throw new VectorizeLimitError(
        `the index was created with ${stored} dimensions; they cannot change`,
      );
    }
  }

  /** Accepts a write; it becomes visible after the configured delay. */
  mutate(mutation: Mutation): { mutationId: string } {
    const rows = mutation.kind === "delete" ? mutation.ids.map(checkId) : mutation.vectors;
    if (rows.length === 0 || rows.length > L.maxBatch) {
      throw new VectorizeLimitError(
        `a batch holds 1 to ${L.maxBatch} vectors through a Workers binding`,
      );
    }
    const mutationId = crypto.randomUUID();
    const due = this.now() + this.config.visibilityDelayMs;
    if (mutation.kind === "delete") {
      for (const id of mutation.ids) {
        queue(this.sql, {
          mutation: mutationId,
          due,
          kind: "delete",
          id,
          namespace: null,
          vals: null,
          metadata: null,
        });
      }
      return { mutationId };
    }
    const checked = mutation.vectors.map((v) => ({
      id: checkId(v.id),
      namespace: checkNamespace(v.namespace),
      vals: checkValues(v.values, this.config.dimensions),
      metadata: checkMetadata(v.metadata),
    }));
    this.checkCapacity(checked);
    for (const v of checked) {
      queue(this.sql, {
        mutation: mutationId,
        due,
        kind: mutation.kind,
        ...v,
        vals: v.vals.buffer as ArrayBuffer,
      });
    }
    return { mutationId };
  }

  /** Nearest neighbours by cosine similarity among applied vectors, highest first. */
  query(vector: ArrayLike<number>, options: WireQueryOptions = {}): VectorizeMatches {
    const query = checkValues(vector, this.config.dimensions);
    const level =
      options.returnMetadata === true
        ? "all"
        : options.returnMetadata === false
          ? "none"
          : (options.returnMetadata ?? "none");
    const topK = options.topK ?? L.defaultTopK;
    const cap =
      options.returnValues || level === "all" ? L.maxTopKWithValuesOrAllMetadata : L.maxTopK;
    if (!Number.isInteger(topK) || topK < 1 || topK > cap) {
      throw new VectorizeLimitError(
        `topK must be an integer from 1 to ${cap} with these return options`,
      );
    }
    const namespace = checkNamespace(options.namespace);
    const filter = options.filter === undefined ? null : checkFilter(options.filter);
    this.catchUp();
    const rows =
      namespace === null
        ? this.sql.exec<Row>("SELECT id, namespace, vals, metadata FROM vsim_vectors")
        : this.sql.exec<Row>(
            "SELECT id, namespace, vals, metadata FROM vsim_vectors WHERE namespace = ?",
            namespace,
          );
    const scored: { row: Row; score: number }[] = [];
    for (const row of rows) {
      const metadata =
        row.metadata === null ? {} : (JSON.parse(row.metadata) as Record<string, unknown>);
      if (filter !== null && !passes(filter, metadata, this.indexed)) continue;
      scored.push({ row, score: cosine(query, new Float32Array(row.vals)) });
    }
    const top = scored.sort((a, b) => b.score - a.score).slice(0, topK);
    const matches = top.map(({ row, score }) => ({
      id: row.id,
      score,
      ...(options.returnValues ? { values: Array.from(new Float32Array(row.vals)) } : {}),
      ...(level === "none" ? {} : { metadata: this.metadataAt(row.metadata, level) }),
    }));
    return { count: matches.length, matches };
  }

  /** Applied vectors by id, with values, metadata and namespace. */
  getByIds(ids: string[]): VectorizeVector[] {
    ids.forEach(checkId);
    this.catchUp();
    const found: VectorizeVector[] = [];
    // SQLite in a Durable Object binds at most 100 parameters a statement.
    for (let start = 0; start < ids.length; start += 100) {
      const chunk = ids.slice(start, start + 100);
      const sql = `SELECT id, namespace, vals, metadata FROM vsim_vectors WHERE id IN (${chunk.map(() => "?").join(",")})`;
      for (const row of this.sql.exec<Row>(sql, ...chunk)) {
        found.push({
          id: row.id,
          values: Array.from(new Float32Array(row.vals)),
          ...(row.namespace === null ? {} : { namespace: row.namespace }),
          ...(row.metadata === null ? {} : { metadata: JSON.parse(row.metadata) }),
        });
      }
    }
    return found;
  }

  /** The index's dimensions, applied vector count and the last mutation applied (id and time). */
  describe() {
    this.catchUp();
    const count = this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM vsim_vectors").one().n;
    return {
      dimensions: this.config.dimensions,
      vectorCount: count,
      processedUpToMutation: this.meta("processed_mutation"),
      processedUpToDatetime: this.meta("processed_at"),
    };
  }

  /** Applies the writes that are due and records the last one, as describe() reports it. */
  private catchUp(): void {
    const last = applyDue(this.sql, this.now());
    if (last === null) return;
    this.setMeta("processed_mutation", last.mutation);
    this.setMeta("processed_at", last.at);
  }

  private checkCapacity(vectors: { namespace: string | null }[]): void {
    const count = this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM vsim_vectors").one().n;
    if (count + vectors.length > L.maxVectors)
      throw new VectorizeLimitError("an index holds at most 5,000,000 vectors");
    const fresh = new Set(
      vectors
        .map((v) => v.namespace)
        .filter((ns): ns is string => ns !== null)
        .filter(
          (ns) =>
            this.sql.exec("SELECT 1 FROM vsim_vectors WHERE namespace = ? LIMIT 1", ns).toArray()
              .length === 0,
        ),
    );
    if (fresh.size === 0) return;
    const namespaces = this.sql
      .exec<{ n: number }>("SELECT COUNT(DISTINCT namespace) AS n FROM vsim_vectors")
      .one().n;
    if (namespaces + fresh.size > L.maxNamespaces)
      throw new VectorizeLimitError("an index holds at most 50,000 namespaces");
  }

  private metadataAt(json: string | null, level: "indexed" | "all"): Metadata {
    const metadata = json === null ? {} : (JSON.parse(json) as Metadata);
    if (level === "all") return metadata;
    // "indexed" answers the indexed properties only, strings cut as the index keeps them.
    return Object.fromEntries(
      Object.entries(metadata)
        .filter(([key]) => this.indexed.has(key))
        .map(([key, value]) => [key, typeof value === "string" ? indexedString(value) : value]),
    );
  }

  private meta(key: string): string | null {
    return (
      this.sql
        .exec<{ value: string }>("SELECT value FROM vsim_meta WHERE key = ?", key)
        .toArray()[0]?.value ?? null
    );
  }

  private setMeta(key: string, value: string): void {
    this.sql.exec("INSERT OR REPLACE INTO vsim_meta (key, value) VALUES (?, ?)", key, value);
  }
}
