import type { SegmentWithVideo } from "../../db/repos/search";
import { fuse, type ParsedQuery, termCoverage, vectorScore } from "../../lib/text/search-scoring";
import {
  matchWords,
  meaningMatches,
  type SearchMatch,
  searchUnits,
  type WordMatch,
} from "./matches";

/**
 * Whether a moment is also scored on the words of the moment right after it, so a query whose
 * words are split over two neighbouring segments ("crane" in one, "hook latch" in the next)
 * surfaces; decided from the held-out figures in docs/benchmarks.md
 * (docs/decisions/neighbouring-moments.md).
 */
export const JOIN_NEIGHBOURS = true;
/** A match spread over two moments ranks below the same words inside one. */
const NEIGHBOUR_FACTOR = 0.9;
/** Segment bounds closer than this are one boundary (times are rounded to the millisecond). */
const ADJACENT_SECONDS = 0.002;

/**
 * The calibrated meaning score below which a moment holding none of the query's words is
 * noise, not a weaker match: an empty answer suggests a lower threshold only for a match
 * above it (docs/decisions/search-results.md).
 */
export const MEANING_FLOOR = 0.3;

/** A candidate with its score, the texts it shows and where its match starts. */
export interface Scored {
  hit: SegmentWithVideo;
  score: number;
  /** The score of the query's words in the texts it shows (0 when it holds none). */
  lexical: number;
  /** The calibrated meaning score (0 without a vector). */
  vector: number;
  shown: SearchMatch[];
  position: number;
}

/** Whether a scored moment is a match at all: it holds a word of the query, or comes near its meaning. */
export function isMatch(scored: Pick<Scored, "lexical" | "vector">): boolean {
  return scored.lexical > 0 || scored.vector >= MEANING_FLOOR;
}

interface Candidate {
  hit: SegmentWithVideo;
  units: SearchMatch[];
  words: WordMatch;
  vector: number;
}

/** Where the match starts: the shown text holding most of the query, earliest first. */
function positionOf(hit: SegmentWithVideo, query: ParsedQuery, shown: SearchMatch[]): number {
  const { startTime, endTime } = hit.segment;
  let best: { coverage: number; start: number } | null = null;
  for (const match of shown) {
    if (match.kind === "tags") continue;
    const coverage = termCoverage(query, match.text);
    if (coverage > 0 && (!best || coverage > best.coverage))
      best = { coverage, start: match.start };
  }
  const start = best?.start ?? startTime;
  return Math.round(Math.min(Math.max(start, startTime), endTime) * 1000) / 1000;
}

function scoredAlone(query: ParsedQuery, candidate: Candidate): Scored {
  const { hit, words, vector } = candidate;
  const shown = words.matches.length > 0 ? words.matches : meaningMatches(candidate.units);
  return {
    hit,
    score: fuse(vector, words.score),
    lexical: words.score,
    vector,
    shown,
    position: positionOf(hit, query, words.matches),
  };
}

/**
 * The moment scored together with the next one, when their words together match the query
 * better than either alone; null otherwise. Its shown texts are both moments' matches.
 */
function scoredWithNext(query: ParsedQuery, first: Candidate, next: Candidate): Scored | null {
  const joint = matchWords(query, [...first.units, ...next.units]);
  if (!joint.quotedFound || first.words.matches.length === 0) return null;
  if (joint.score <= Math.max(first.words.score, next.words.score)) return null;
  const vector = Math.max(first.vector, next.vector);
  const lexical = joint.score * NEIGHBOUR_FACTOR;
  return {
    hit: first.hit,
    score: fuse(vector, lexical),
    lexical,
    vector,
    shown: joint.matches,
    position: positionOf(first.hit, query, first.words.matches),
  };
}

function adjacent(a: SegmentWithVideo, b: SegmentWithVideo): boolean {
  return (
    a.video.id === b.video.id &&
    Math.abs(a.segment.endTime - b.segment.startTime) <= ADJACENT_SECONDS
  );
}

/**
 * Scores every candidate on its meaning (calibrated vector similarity) fused with the query's
 * words in the texts it shows, drops those missing a quoted phrase, and ranks them best first.
 * `vectorOf` gives a candidate's cosine and the model that measured it, when it has one.
 */
export function rankCandidates(
  query: ParsedQuery,
  hits: readonly SegmentWithVideo[],
  vectorOf: (segmentId: string) => { model: string; cosine: number } | undefined,
): Scored[] {
  const candidates: Candidate[] = hits.map((hit) => {
    const units = searchUnits(hit.segment);
    const vector = vectorOf(hit.segment.id);
    return {
      hit,
      units,
      words: matchWords(query, units),
      vector: vector === undefined ? 0 : vectorScore(vector.model, vector.cosine),
    };
  });
  const inOrder = [...candidates].sort(
    (a, b) =>
      a.hit.video.id.localeCompare(b.hit.video.id) ||
      a.hit.segment.startTime - b.hit.segment.startTime,
  );
  const scored: Scored[] = [];
  inOrder.forEach((candidate, index) => {
    const next = inOrder[index + 1];
    const joined =
      JOIN_NEIGHBOURS && next !== undefined && adjacent(candidate.hit, next.hit)
        ? scoredWithNext(query, candidate, next)
        : null;
    const alone = candidate.words.quotedFound ? scoredAlone(query, candidate) : null;
    const best = joined !== null && (alone === null || joined.score > alone.score) ? joined : alone;
    if (best !== null) scored.push(best);
  });
  return sortScored(scored);
}

/** Best score first; ties by segment id, so results are deterministic. */
export function sortScored(scored: Scored[]): Scored[] {
  return scored.sort(
    (a, b) => b.score - a.score || a.hit.segment.id.localeCompare(b.hit.segment.id),
  );
}
