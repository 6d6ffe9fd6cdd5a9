import type { ResultState } from "../../domain/answers";

/** Counts of result states as the run summary says them. */
export function summarize(states: ResultState[], videoCount: number): string {
  const counts = new Map<ResultState, number>();
  for (const state of states) counts.set(state, (counts.get(state) ?? 0) + 1);
  return summarizeCounts(counts, videoCount);
}

/** The run summary from counts of result states (as SQL counts them). */
export function summarizeCounts(counts: Map<ResultState, number>, videoCount: number): string {
  const count = (state: ResultState) => counts.get(state) ?? 0;
  const videos = `${videoCount} video${videoCount === 1 ? "" : "s"}`;
  return `${count("found")} found, ${count("not_found")} not found, ${count("uncertain")} uncertain, ${count("not_checked")} not checked over ${videos}`;
}
