import type { Mutation, SimulatedIndexConfig, WireQueryOptions, WireVector } from "./types";

/** What the binding stand-in calls: the Durable Object's RPC stub, or the index in a test. */
export interface SimulatedIndexBackend {
  mutate(config: SimulatedIndexConfig, mutation: Mutation): Promise<{ mutationId: string }>;
  query(
    config: SimulatedIndexConfig,
    vector: number[],
    options: WireQueryOptions,
  ): Promise<VectorizeMatches>;
  getByIds(config: SimulatedIndexConfig, ids: string[]): Promise<VectorizeVector[]>;
  describe(config: SimulatedIndexConfig): Promise<{
    dimensions: number;
    vectorCount: number;
    processedUpToMutation: string | null;
    processedUpToDatetime: string | null;
  }>;
}

const wire = (vectors: VectorizeVector[]): WireVector[] =>
  vectors.map((v) => ({
    id: v.id,
    values: Array.from(v.values),
    ...(v.namespace === undefined ? {} : { namespace: v.namespace }),
    ...(v.metadata === undefined ? {} : { metadata: v.metadata as Record<string, unknown> }),
  }));

/**
 * Stands in for a Vectorize (V2) binding (`env.VECTORIZE`): the same methods and reply shapes,
 * over a simulated index that enforces Vectorize's limits and applies writes only after
 * `visibilityDelayMs`, reporting progress through `describe()`.
 */
export class VectorizeSimulator {
  constructor(
    private readonly backend: SimulatedIndexBackend,
    private readonly config: SimulatedIndexConfig,
  ) {}

  async insert(vectors: VectorizeVector[]): Promise<VectorizeAsyncMutation> {
    return this.backend.mutate(this.config, { kind: "insert", vectors: wire(vectors) });
  }

  async upsert(vectors: VectorizeVector[]): Promise<VectorizeAsyncMutation> {
    return this.backend.mutate(this.config, { kind: "upsert", vectors: wire(vectors) });
  }

  async deleteByIds(ids: string[]): Promise<VectorizeAsyncMutation> {
    return this.backend.mutate(this.config, { kind: "delete", ids });
  }

  async query(
    vector: VectorFloatArray | number[],
    options?: VectorizeQueryOptions,
  ): Promise<VectorizeMatches> {
    return this.backend.query(this.config, Array.from(vector), (options ?? {}) as WireQueryOptions);
  }

  async getByIds(ids: string[]): Promise<VectorizeVector[]> {
    return this.backend.getByIds(this.config, ids);
  }

  /** Typed as workers-types types it; the values are a UUID and an ISO 8601 string, as documented. */
  async describe(): Promise<VectorizeIndexInfo> {
    return (await this.backend.describe(this.config)) as unknown as VectorizeIndexInfo;
  }
}
