import type { Env } from "../../env";
import type {
  FeatureContribution,
  FeatureFrequencies,
  FeatureStatsStore,
} from "../embedder/feature-stats";
import type { VectorIndex, VectorMatch, VectorQuery, VectorRecord } from "./port";

/** Records per RPC: 500 × 384 float32 ≈ 0.8 MB, well inside RPC limits and quick to clone. */
const RECORDS_PER_CALL = 500;
/** Ids per delete RPC. */
const IDS_PER_CALL = 5_000;

/**
 * The local vector index: the workspace's LocalVectorIndex Durable Object (one per
 * workspace, named by its id). Writes are applied before the call returns, so `upsert`
 * resolves once the vectors are visible.
 */
export class LocalVectorIndexAdapter implements VectorIndex {
  constructor(private readonly namespace: Env["LOCAL_INDEX"]) {}

  async upsert(workspaceId: string, records: VectorRecord[]): Promise<void> {
    const stub = this.namespace.getByName(workspaceId);
    for (let start = 0; start < records.length; start += RECORDS_PER_CALL) {
      await stub.upsert(records.slice(start, start + RECORDS_PER_CALL));
    }
  }

  async query(
    workspaceId: string,
    vector: Float32Array,
    options: VectorQuery,
  ): Promise<VectorMatch[]> {
    return this.namespace.getByName(workspaceId).query(vector, options);
  }

  async delete(workspaceId: string, ids: string[]): Promise<void> {
    const stub = this.namespace.getByName(workspaceId);
    for (let start = 0; start < ids.length; start += IDS_PER_CALL) {
      await stub.delete(ids.slice(start, start + IDS_PER_CALL));
    }
  }
}

/** The local embedder's IDF statistics, kept in the same per-workspace Durable Object. */
export class LocalIndexFeatureStats implements FeatureStatsStore {
  constructor(private readonly namespace: Env["LOCAL_INDEX"]) {}

  async replace(
    workspaceId: string,
    key: string,
    contribution: FeatureContribution,
  ): Promise<void> {
    await this.namespace.getByName(workspaceId).learnFeatures(key, contribution);
  }

  async remove(workspaceId: string, key: string): Promise<void> {
    await this.namespace.getByName(workspaceId).forgetFeatures(key);
  }

  async frequencies(workspaceId: string, buckets: Uint32Array): Promise<FeatureFrequencies> {
    return this.namespace.getByName(workspaceId).featureFrequencies(buckets);
  }
}
