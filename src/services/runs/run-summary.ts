import type { ResultState } from "../../domain/answers";

/** Counts of result states as the run summary says them. */
export function summarize(states: ResultState[], videoCount: number): string {
  const counts = new Map<ResultState, number>();
  for (const state of states) counts.set(state, (counts.get(state) ?? 0) + 1);
  return summarizeCounts(counts, videoCount);
}

const STATES: readonly [ResultState, string][] = [
  ["found", "found"],
  ["not_found", "not found"],
  ["uncertain", "uncertain"],
  ["not_checked", "not checked"],
];

/**
 * The run summary from counts of result states (as SQL counts them): states with none left
 * out, so a reader sees what there is ("2 found, 1 uncertain over 3 videos").
 */
export function summarizeCounts(counts: Map<ResultState, number>, videoCount: number): string {
  const videos = `${videoCount} video${videoCount === 1 ? "" : "s"}`;
  const parts = STATES.flatMap(([state, words]) => {
    const count = counts.get(state) ?? 0;
    return count === 0 ? [] : [`${count} ${words}`];
  });
  return parts.length === 0
    ? `nothing judged over ${videos}`
    : `${parts.join(", ")} over ${videos}`;
}
