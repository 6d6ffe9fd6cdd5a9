import { searchableVideoCounts, VIDEOS_COUNTED } from "../db/repos/search";
import type { Deps } from "./deps";

/** Why a search answered no result, for the person who typed it. */
export interface SearchExplanation {
  reason: "no_videos" | "nothing_understood" | "no_match" | "below_threshold";
  detail: string;
  threshold: number;
  /** The best score any moment reached, below the threshold; null when none matched at all. */
  best_score: number | null;
  videos_searched: number;
  /** Of them, those in which processing heard and saw nothing (`media.understood.warning`). */
  videos_without_understanding: number;
}

const plural = (n: number, word: string) =>
  `${n}${n >= VIDEOS_COUNTED ? "+" : ""} ${word}${n === 1 ? "" : "s"}`;

/**
 * Explains an empty first page: no completed video to search, videos of which nothing was
 * understood, no moment holding any word or meaning of the query, or moments that scored
 * below the threshold (with the best score, so the user knows what to lower it to).
 */
export async function explainEmptySearch(
  deps: Pick<Deps, "db">,
  scope: { workspaceId: string; videoIds: string[] | undefined; threshold: number },
  bestScore: number | null,
): Promise<SearchExplanation> {
  const counts = await searchableVideoCounts(deps.db, scope.workspaceId, scope.videoIds);
  const base = {
    threshold: scope.threshold,
    best_score: bestScore,
    videos_searched: counts.completed,
    videos_without_understanding: counts.nothingUnderstood,
  };
  const unheard =
    counts.nothingUnderstood > 0
      ? ` In ${plural(counts.nothingUnderstood, "video")} nothing was heard or seen (no caption or subtitle track; see media.understood on the video), so only their titles and tags can match.`
      : "";
  if (counts.completed === 0) {
    return {
      reason: "no_videos",
      detail:
        "No completed video to search: upload one and wait until its status is completed (GET /videos/{video_id}).",
      ...base,
    };
  }
  if (bestScore !== null && bestScore > 0) {
    return {
      reason: "below_threshold",
      detail: `No moment scored at least the threshold ${scope.threshold}; the best scored ${bestScore}. Lower threshold to see weaker matches (0.97 is the query as written, 0.85 all its words, less for some of them or a match by meaning alone).${unheard}`,
      ...base,
    };
  }
  if (counts.nothingUnderstood === counts.completed) {
    return {
      reason: "nothing_understood",
      detail: `Nothing was heard or seen in the ${plural(counts.completed, "video")} searched: they have no caption or subtitle track, and this service's media engine does not recognise speech or describe pictures. Add captions to the files, or use a deployment with the production adapters.`,
      ...base,
    };
  }
  return {
    reason: "no_match",
    detail: `No moment of the ${plural(counts.completed, "video")} searched holds a word of the query or comes near it in meaning.${unheard}`,
    ...base,
  };
}
