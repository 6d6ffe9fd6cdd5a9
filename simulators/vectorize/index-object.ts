import { DurableObject } from "cloudflare:workers";
import { SimulatedVectorIndex } from "./store";
import type { Mutation, SimulatedIndexConfig, WireQueryOptions } from "./types";

/**
 * One simulated Vectorize index per object (SQLite storage; bind it with a `new_sqlite_classes`
 * migration). Every call carries the index's configuration, so the binding stand-in decides
 * dimensions, metadata indexes and the visibility delay in one place.
 */
export class VectorizeSimulatorIndex extends DurableObject {
  private index(config: SimulatedIndexConfig): SimulatedVectorIndex {
    return new SimulatedVectorIndex(this.ctx.storage.sql, config);
  }

  /** Accepts an insert, upsert or delete; answers its mutation id. */
  mutate(config: SimulatedIndexConfig, mutation: Mutation): { mutationId: string } {
    return this.index(config).mutate(mutation);
  }

  /** Nearest neighbours among applied vectors. */
  query(config: SimulatedIndexConfig, vector: number[], options: WireQueryOptions) {
    return this.index(config).query(vector, options);
  }

  /** Applied vectors by id. */
  getByIds(config: SimulatedIndexConfig, ids: string[]) {
    return this.index(config).getByIds(ids);
  }

  /** Dimensions, applied vector count, last mutation applied. */
  describe(config: SimulatedIndexConfig) {
    return this.index(config).describe();
  }
}
