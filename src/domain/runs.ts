import type { ResultState } from "./answers";

/** Resources a run consumed (the provenance usage of the spec's Run section). */
export interface RunUsage {
  input_tokens: number;
  output_tokens: number;
  cached_input_tokens: number;
  total_tokens: number;
  media_seconds: number;
  /** Model calls the run's steps made; absent on runs finished before it was recorded. */
  model_calls?: number;
}

/** What a run has consumed before its first answer. */
export function emptyUsage(): RunUsage {
  return {
    input_tokens: 0,
    output_tokens: 0,
    cached_input_tokens: 0,
    total_tokens: 0,
    media_seconds: 0,
    model_calls: 0,
  };
}

/**
 * The run's overall result: `found` only when every answer is; otherwise the weakest state
 * present (uncertain before not_checked before not_found), so a partial run never reads as a pass.
 */
export function runResultState(states: ResultState[]): ResultState {
  if (states.length > 0 && states.every((state) => state === "found")) return "found";
  for (const state of ["uncertain", "not_checked", "not_found"] as const)
    if (states.includes(state)) return state;
  return "not_checked";
}
