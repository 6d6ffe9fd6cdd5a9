import type { SegmentWithVideo } from "../../db/repos/search";
import { type ParsedQuery, unitsScore } from "../../lib/text/search-scoring";
import { isStopword, tokenize } from "../../lib/text/text-features";
import { type Scored, sortScored } from "./rank";

/**
 * A filename holding the query's words ranks below the same words said or shown in a video:
 * it names the file and is no evidence of what the video holds
 * (docs/decisions/filenames-in-search.md). All its words score 0.85 × 0.85, above the default
 * threshold; the query as written 0.97 × 0.85.
 */
export const FILENAME_FACTOR = 0.85;

/** At most this many words of a query look for filenames. */
const MAX_WORDS = 32;

/**
 * The words a filename is found by: the name without its extension (up to 5 characters after
 * the last dot, no space among them), as migration 0030 indexes it.
 */
export function filenameText(filename: string): string {
  const dot = filename.lastIndexOf(".");
  const extension = dot > 0 ? filename.slice(dot + 1) : "";
  const named = extension.length >= 1 && extension.length <= 5 && !extension.includes(" ");
  return named ? filename.slice(0, dot) : filename;
}

/** The FTS5 expression finding filenames that hold any word of the query; null when it has none. */
export function filenameExpression(query: string): string | null {
  const tokens = tokenize(query);
  const content = tokens.filter((token) => !isStopword(token));
  const words = [...new Set(content.length > 0 ? content : tokens)].slice(0, MAX_WORDS);
  return words.length === 0 ? null : words.map((word) => `"${word}"`).join(" OR ");
}

/**
 * Scores each video's filename against the query's words like a shown text, × FILENAME_FACTOR.
 * A hit is the video's first segment at its start, and shows the filename (kind `filename`);
 * one without a word of the query, or without a quoted phrase, is left out.
 */
export function rankFilenames(query: ParsedQuery, hits: readonly SegmentWithVideo[]): Scored[] {
  const scored: Scored[] = [];
  for (const hit of hits) {
    const { score, phraseFound } = unitsScore(query, [filenameText(hit.video.filename)]);
    if (score === 0 || (query.quoted && !phraseFound)) continue;
    const start = hit.segment.startTime;
    scored.push({
      hit,
      score: Math.round(FILENAME_FACTOR * score * 10_000) / 10_000,
      lexical: score,
      vector: 0,
      shown: [
        { kind: "filename", source: "filename", text: hit.video.filename, start, end: start },
      ],
      position: Math.round(start * 1000) / 1000,
    });
  }
  return sortScored(scored);
}

/**
 * The results of a search at `threshold`: the moments scoring at least it, and the filename
 * hits scoring at least it of videos none of whose moments did (a video found by what it holds
 * is not shown again for its name), best first.
 */
export function resultsAt(
  moments: readonly Scored[],
  filenames: readonly Scored[],
  threshold: number,
): Scored[] {
  const kept = moments.filter((entry) => entry.score >= threshold);
  const found = new Set(kept.map((entry) => entry.hit.video.id));
  const named = filenames.filter(
    (entry) => entry.score >= threshold && !found.has(entry.hit.video.id),
  );
  return sortScored([...kept, ...named]);
}
