import type { SearchedSegment } from "../../db/repos/search";
import { type ParsedQuery, termCoverage, unitsScore } from "../../lib/text/search-scoring";

/**
 * One piece of text a result shows: a cue, a line of on-screen text, a container tag, the tags,
 * or the video's filename (never evidence of what is in the video).
 */
export interface SearchMatch {
  kind: "transcript" | "scene" | "ocr" | "metadata" | "tags" | "filename";
  source: string;
  text: string;
  start: number;
  end: number;
}

const SHOWN_EVIDENCE = new Set(["transcript", "scene", "ocr", "metadata"]);

/**
 * The texts a segment can be found by, each as a result would show it: every transcript,
 * scene, OCR and metadata span with its own times, and the tags as one line. A segment
 * without transcript spans (indexed from a bare transcript) shows its transcript lines.
 */
export function searchUnits(segment: SearchedSegment): SearchMatch[] {
  const units: SearchMatch[] = [];
  const seen = new Set<string>();
  for (const span of segment.evidence) {
    if (!SHOWN_EVIDENCE.has(span.kind) || span.text.trim() === "") continue;
    const key = `${span.kind}|${span.start}|${span.text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    units.push({
      kind: span.kind as SearchMatch["kind"],
      source: span.source,
      text: span.text,
      start: span.start,
      end: span.end,
    });
  }
  if (!units.some((unit) => unit.kind === "transcript")) {
    for (const line of segment.transcript.split("\n")) {
      if (line.trim() === "") continue;
      units.push({
        kind: "transcript",
        source: "transcript",
        text: line.trim(),
        start: segment.startTime,
        end: segment.endTime,
      });
    }
  }
  if (segment.tags.length > 0) {
    units.push({
      kind: "tags",
      source: "tags",
      text: segment.tags.join(", "),
      start: segment.startTime,
      end: segment.endTime,
    });
  }
  return units;
}

/** How a segment's shown texts match the query's words. */
export interface WordMatch {
  score: number;
  /** Every quoted phrase is inside one shown text (always true without quotes). */
  quotedFound: boolean;
  /** The texts holding a word of the query, in time order. */
  matches: SearchMatch[];
}

/** Scores the query's words against a segment's shown texts and keeps those that hold one. */
export function matchWords(query: ParsedQuery, units: readonly SearchMatch[]): WordMatch {
  const { score, phraseFound } = unitsScore(
    query,
    units.map((unit) => unit.text),
  );
  const matches = units
    .filter((unit) => termCoverage(query, unit.text) > 0)
    .sort((a, b) => a.start - b.start || a.end - b.end);
  return { score, quotedFound: !query.quoted || phraseFound, matches };
}

/**
 * What a result shows when no word of the query is in it (a match by meaning alone): what
 * was said, else every text it can be found by.
 */
export function meaningMatches(units: readonly SearchMatch[]): SearchMatch[] {
  const said = units.filter((unit) => unit.kind === "transcript");
  return said.length > 0 ? said : [...units];
}
