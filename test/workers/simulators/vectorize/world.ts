import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import {
  type SimulatedIndexBackend,
  type SimulatedIndexConfig,
  SimulatedVectorIndex,
  VectorizeSimulator,
} from "../../../../simulators/vectorize";

/** A settable clock shared by the test and the simulated index. */
export interface Clock {
  now: number;
}

/** The index this service creates: 4 dimensions here, cosine, `video_id` indexed. */
export function config(overrides: Partial<SimulatedIndexConfig> = {}): SimulatedIndexConfig {
  return {
    dimensions: 4,
    metric: "cosine",
    visibilityDelayMs: 2_000,
    metadataIndexes: ["video_id"],
    ...overrides,
  };
}

/**
 * The binding stand-in over a simulated index kept in a fresh SQLite Durable Object's storage
 * (the simulator's class is bound by the app; tests host its index in an object already bound).
 */
export function simulator(clock: Clock, overrides: Partial<SimulatedIndexConfig> = {}) {
  const stub = env.LOCAL_INDEX.getByName(`vsim_${crypto.randomUUID()}`);
  const run = <T>(c: SimulatedIndexConfig, work: (index: SimulatedVectorIndex) => T) =>
    runInDurableObject(stub, (_instance, state) =>
      work(new SimulatedVectorIndex(state.storage.sql, c, () => clock.now)),
    );
  const backend: SimulatedIndexBackend = {
    mutate: (c, mutation) => run(c, (index) => index.mutate(mutation)),
    query: (c, vector, options) => run(c, (index) => index.query(vector, options)),
    getByIds: (c, ids) => run(c, (index) => index.getByIds(ids)),
    describe: (c) => run(c, (index) => index.describe()),
  };
  return new VectorizeSimulator(backend, config(overrides));
}

/** A vector of the test index. */
export const vec = (id: string, values: number[], videoId = "vid_1", namespace = "ws_1") => ({
  id,
  values,
  namespace,
  metadata: { video_id: videoId },
});
