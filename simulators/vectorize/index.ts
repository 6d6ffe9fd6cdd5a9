export { type SimulatedIndexBackend, VectorizeSimulator } from "./binding";
export { VectorizeSimulatorIndex } from "./index-object";
export { VECTORIZE_LIMITS, VectorizeLimitError } from "./limits";
export { SimulatedVectorIndex } from "./store";
export type { SimulatedIndexConfig } from "./types";
