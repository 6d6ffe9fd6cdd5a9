import type { BGE_M3, EmbeddingAi } from "../../../src/ports/embedder/workers-ai";
import type { VectorizeBinding } from "../../../src/ports/vector-index/vectorize";

/** A deterministic stand-in embedding of a text: not unit length, so normalisation shows. */
export function fakeEmbedding(text: string, dimensions = 1024): number[] {
  const values: number[] = [];
  let h = 2166136261;
  for (const ch of text) h = Math.imul(h ^ (ch.codePointAt(0) ?? 0), 16777619);
  for (let i = 0; i < dimensions; i++) {
    h = Math.imul(h ^ i, 16777619);
    values.push(((h >>> 0) % 2000) / 100 - 10);
  }
  return values;
}

/** Stands in for `env.AI` with BGE-M3: records each call, answers one vector per text. */
export class RecordingEmbeddingAi implements EmbeddingAi {
  readonly calls: Array<{ model: string; inputs: Ai_Cf_Baai_Bge_M3_Input_Embedding }> = [];
  inFlight = 0;
  maxInFlight = 0;
  /** When set, the call with this index (0-based) throws like the binding does. */
  failCall: number | null = null;
  /** Replaces the answer of every call. */
  answer: ((texts: string[]) => Ai_Cf_Baai_Bge_M3_Output) | null = null;

  async run(
    model: typeof BGE_M3,
    inputs: Ai_Cf_Baai_Bge_M3_Input_Embedding,
  ): Promise<Ai_Cf_Baai_Bge_M3_Output> {
    const index = this.calls.length;
    this.calls.push({ model, inputs });
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (index === this.failCall) throw new Error("3040: Capacity temporarily exceeded");
      const texts = typeof inputs.text === "string" ? [inputs.text] : inputs.text;
      if (this.answer !== null) return this.answer(texts);
      return { shape: [texts.length, 1024], data: texts.map((text) => fakeEmbedding(text)) };
    } finally {
      this.inFlight--;
    }
  }
}

interface StoredVector {
  id: string;
  values: number[];
  namespace?: string;
  metadata?: Record<string, VectorizeVectorMetadata>;
}

/**
 * An in-memory Vectorize (V2) that records every call. Mutations queue up and become
 * visible only when `apply()` runs (or `autoApplyAfter` describe calls), like the real WAL.
 */
export class RecordingVectorize implements VectorizeBinding {
  readonly upserts: VectorizeVector[][] = [];
  readonly deletes: string[][] = [];
  readonly queries: Array<{ vector: number[]; options: VectorizeQueryOptions | undefined }> = [];
  readonly getByIdsCalls: string[][] = [];
  describeCalls = 0;
  /** Describe calls after which pending mutations apply (null: never by themselves). */
  autoApplyAfter: number | null = 0;
  /** Leaves metadata out of query answers (to exercise the fallback). */
  dropMetadata = false;
  private readonly stored = new Map<string, StoredVector>();
  private readonly pending: Array<{ id: string; apply: () => void }> = [];
  private processed = "";
  private processedAt = new Date(0).toISOString();
  private sequence = 0;

  async upsert(vectors: VectorizeVector[]): Promise<VectorizeAsyncMutation> {
    this.upserts.push(vectors);
    const copies = vectors.map((v) => ({ ...v, values: Array.from(v.values) }));
    return this.enqueue(() => {
      for (const v of copies) this.stored.set(v.id, v);
    });
  }

  async deleteByIds(ids: string[]): Promise<VectorizeAsyncMutation> {
    this.deletes.push(ids);
    return this.enqueue(() => {
      for (const id of ids) this.stored.delete(id);
    });
  }

  async describe(): Promise<VectorizeIndexInfo> {
    this.describeCalls++;
    if (this.autoApplyAfter !== null && this.describeCalls > this.autoApplyAfter) this.apply();
    return {
      vectorCount: this.stored.size,
      dimensions: 4,
      // Both typed as numbers by workers-types; documented (and sent) as an ISO 8601 string
      // and the mutation's UUID string.
      processedUpToDatetime: this.processedAt as unknown as number,
      processedUpToMutation: this.processed as unknown as number,
    };
  }

  async query(
    vector: VectorFloatArray | number[],
    options?: VectorizeQueryOptions,
  ): Promise<VectorizeMatches> {
    const query = Array.from(vector);
    this.queries.push({ vector: query, options });
    const matches = [...this.stored.values()]
      .filter((v) => v.namespace === options?.namespace && matchesFilter(v, options?.filter))
      .map((v) => ({
        id: v.id,
        score: cosine(query, v.values),
        ...(this.dropMetadata || options?.returnMetadata === "none"
          ? {}
          : { metadata: v.metadata }),
      }))
      .sort((a, b) => b.score - a.score)
      .slice(0, options?.topK ?? 5);
    return { matches, count: matches.length };
  }

  async getByIds(ids: string[]): Promise<VectorizeVector[]> {
    this.getByIdsCalls.push(ids);
    return ids.flatMap((id) => {
      const v = this.stored.get(id);
      return v === undefined ? [] : [v];
    });
  }

  /** Applies every queued mutation, in order. */
  apply(): void {
    for (const mutation of this.pending.splice(0)) {
      mutation.apply();
      this.processed = mutation.id;
      this.processedAt = new Date().toISOString();
    }
  }

  private enqueue(apply: () => void): VectorizeAsyncMutation {
    const id = `00000000-0000-4000-8000-${String(++this.sequence).padStart(12, "0")}`;
    this.pending.push({ id, apply });
    return { mutationId: id };
  }
}

function matchesFilter(
  v: StoredVector,
  filter: VectorizeVectorMetadataFilter | undefined,
): boolean {
  if (filter === undefined) return true;
  return Object.entries(filter).every(([field, condition]) => {
    const value = v.metadata?.[field];
    if (condition === null || typeof condition !== "object") return value === condition;
    if ("$in" in condition) return (condition.$in as unknown[]).includes(value);
    if ("$eq" in condition) return value === condition.$eq;
    throw new Error(`fake Vectorize does not support filter ${JSON.stringify(condition)}`);
  });
}

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += (a[i] ?? 0) * (b[i] ?? 0);
    na += (a[i] ?? 0) ** 2;
    nb += (b[i] ?? 0) ** 2;
  }
  return dot / Math.sqrt(na * nb);
}
