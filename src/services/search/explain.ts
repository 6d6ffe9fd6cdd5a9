import type { SearchScopeCounts } from "../../db/repos/search-scope";
import type { MediaAbilities } from "../../domain/media-abilities";
import { searchedSentence } from "../media/abilities";
import { notSearchedSentence, unheardSentence, videosCounted } from "./scope";

/** Why a search answered no result, for the person who typed it. */
export interface SearchExplanation {
  reason: "no_videos" | "nothing_understood" | "no_match" | "below_threshold";
  detail: string;
  threshold: number;
  /** The best score of a match below the threshold; null when nothing matched, noise aside. */
  best_score: number | null;
  /** The highest threshold at which this search shows a result; null when none would. */
  suggested_threshold: number | null;
  videos_searched: number;
  /** Of them, those in which processing heard and saw nothing (`media.understood.warning`). */
  videos_without_understanding: number;
}

/** What a lower threshold would show: the best match below it, where to set it, how many. */
export interface WeakerMatches {
  best: number;
  threshold: number;
  count: number;
}

const sentences = (...parts: string[]) => parts.filter((part) => part !== "").join(" ");

/**
 * Explains an empty first page: no completed video to search, videos of which nothing was
 * understood, no match at all, or matches below the threshold. It suggests a lower threshold
 * only when one would show a result (`weaker`), and names what search read in this deployment,
 * so a word written on screen that the engine does not read is not taken for a missing one.
 */
export function explainEmptySearch(
  counts: SearchScopeCounts,
  abilities: MediaAbilities,
  threshold: number,
  weaker: WeakerMatches | null,
): SearchExplanation {
  const base = {
    threshold,
    best_score: weaker?.best ?? null,
    suggested_threshold: weaker?.threshold ?? null,
    videos_searched: counts.completed,
    videos_without_understanding: counts.nothingUnderstood,
  };
  const searched = searchedSentence(abilities);
  if (counts.completed === 0) {
    return {
      reason: "no_videos",
      detail: sentences(
        "No completed video to search: upload one and wait until its status is completed (GET /videos/{video_id}).",
        notSearchedSentence(counts),
      ),
      ...base,
    };
  }
  if (weaker !== null) {
    const moments = `${weaker.count} result${weaker.count === 1 ? "" : "s"}`;
    return {
      reason: "below_threshold",
      detail: sentences(
        `No moment scored at least the threshold ${threshold}; the best scored ${weaker.best}. Search with threshold ${weaker.threshold} to see ${moments} (0.97 is the query as written, 0.85 all its words, less for some of them or a match by meaning alone).`,
        unheardSentence(counts),
        notSearchedSentence(counts),
      ),
      ...base,
    };
  }
  if (counts.nothingUnderstood === counts.completed) {
    const remedy = abilities.speech
      ? "Add captions with PUT /videos/{video_id}/captions/{language}."
      : "Add captions with PUT /videos/{video_id}/captions/{language}, or use a deployment with the production adapters.";
    return {
      reason: "nothing_understood",
      detail: sentences(
        `Nothing was heard or seen in the ${videosCounted(counts.completed)} searched (no caption or subtitle track; see media.understood on the video), so only their filenames, titles and tags could match, and none holds a word of the query.`,
        searched,
        remedy,
        notSearchedSentence(counts),
      ),
      ...base,
    };
  }
  return {
    reason: "no_match",
    detail: sentences(
      `No moment of the ${videosCounted(counts.completed)} searched holds a word of the query or comes near it in meaning, and no filename holds one.`,
      searched,
      unheardSentence(counts),
      notSearchedSentence(counts),
    ),
    ...base,
  };
}
