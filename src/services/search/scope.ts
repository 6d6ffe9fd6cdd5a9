import { type SearchScopeCounts, VIDEOS_COUNTED } from "../../db/repos/search-scope";
import type { MediaAbilities } from "../../domain/media-abilities";
import { searchedSentence, searchKinds } from "../media/abilities";
import type { SearchMatch } from "./matches";

/** What a search covered (the first page's `scope`): which videos, and which kinds of text. */
export interface SearchScope {
  /** Completed videos searched (counted up to VIDEOS_COUNTED). */
  videos_searched: number;
  /** Of them, those in which nothing was heard or seen: only filename, title and tags searched. */
  videos_without_understanding: number;
  /** Videos not searched: `videos_not_yet_indexed` and `videos_failed` together. */
  videos_not_searched: number;
  /** Still uploading or processing. */
  videos_not_yet_indexed: number;
  videos_failed: number;
  /** The kinds of text this deployment's search matches (`matches[].kind`). */
  kinds_searched: SearchMatch["kind"][];
  /** All of it in words. */
  detail: string;
}

/** "3 videos", "10000+ videos": a count of videos in words. */
export function videosCounted(n: number): string {
  return `${n}${n >= VIDEOS_COUNTED ? "+" : ""} video${n === 1 ? "" : "s"}`;
}

/** Why some videos were not searched, or "" when all were. */
export function notSearchedSentence(counts: SearchScopeCounts): string {
  const total = counts.unfinished + counts.failed;
  if (total === 0) return "";
  const parts = [
    ...(counts.unfinished > 0
      ? [
          `${counts.unfinished} ${counts.unfinished === 1 ? "is" : "are"} still being uploaded or processed`,
        ]
      : []),
    ...(counts.failed > 0 ? [`${counts.failed} failed`] : []),
  ];
  const verb = total === 1 ? "was" : "were";
  return `${videosCounted(total)} ${verb} not searched: ${parts.join(" and ")}.`;
}

/** How many searched videos had nothing heard or seen, or "" when none. */
export function unheardSentence(counts: SearchScopeCounts): string {
  const n = counts.nothingUnderstood;
  if (n === 0) return "";
  const which =
    n === counts.completed ? "all of them" : `${n}${n >= VIDEOS_COUNTED ? "+" : ""} of them`;
  return `In ${which} nothing was heard or seen (see media.understood on the video), so only their filenames, titles and tags could match.`;
}

/** The first page's `scope`: the videos searched and not, and what search reads here. */
export function describeScope(counts: SearchScopeCounts, abilities: MediaAbilities): SearchScope {
  const detail = [
    `${videosCounted(counts.completed)} searched. ${searchedSentence(abilities)}`,
    unheardSentence(counts),
    notSearchedSentence(counts),
  ].filter((sentence) => sentence !== "");
  return {
    videos_searched: counts.completed,
    videos_without_understanding: counts.nothingUnderstood,
    videos_not_searched: counts.unfinished + counts.failed,
    videos_not_yet_indexed: counts.unfinished,
    videos_failed: counts.failed,
    kinds_searched: searchKinds(abilities),
    detail: detail.join(" "),
  };
}
