/** How the simulated index was created, and how late its writes become visible. */
export interface SimulatedIndexConfig {
  dimensions: number;
  /** Only cosine is simulated: the metric this service's index is created with. */
  metric: "cosine";
  /** Each mutation is applied this long after it was accepted. */
  visibilityDelayMs: number;
  /** Properties with a metadata index (string, number or boolean values), at most 10. */
  metadataIndexes: readonly string[];
}

/** A vector as it crosses the binding. */
export interface WireVector {
  id: string;
  values: ArrayLike<number>;
  namespace?: string;
  metadata?: Record<string, unknown>;
}

/** One write, accepted at once and applied after the visibility delay. */
export type Mutation =
  | { kind: "insert" | "upsert"; vectors: WireVector[] }
  | { kind: "delete"; ids: string[] };

/** Query options as the binding takes them. */
export interface WireQueryOptions {
  topK?: number;
  namespace?: string;
  returnValues?: boolean;
  returnMetadata?: boolean | "none" | "indexed" | "all";
  filter?: Record<string, unknown>;
}

/** A stored vector row. */
export type Row = {
  id: string;
  namespace: string | null;
  vals: ArrayBuffer;
  metadata: string | null;
};

/** The simulator's tables, prefixed so they sit beside others in one object. */
export const SCHEMA = [
  "CREATE TABLE IF NOT EXISTS vsim_vectors (id TEXT PRIMARY KEY, namespace TEXT, vals BLOB NOT NULL, metadata TEXT)",
  "CREATE INDEX IF NOT EXISTS vsim_vectors_namespace ON vsim_vectors (namespace)",
  // One row per vector of a pending write; a row holds one vector, well under the 2 MB row limit.
  "CREATE TABLE IF NOT EXISTS vsim_pending (seq INTEGER PRIMARY KEY AUTOINCREMENT, mutation TEXT NOT NULL, due INTEGER NOT NULL, kind TEXT NOT NULL, id TEXT NOT NULL, namespace TEXT, vals BLOB, metadata TEXT)",
  "CREATE TABLE IF NOT EXISTS vsim_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
];

/** Cosine similarity; 0 against a zero vector. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
