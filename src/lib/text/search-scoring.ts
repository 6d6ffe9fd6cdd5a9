import { matchStem } from "./irregular-verbs";
import { isStopword, tokenize } from "./text-features";

/**
 * Maps an embedder's cosine similarity onto the 0-1 score scale search reports. Each model
 * has its own spread of cosines, so each gets the cosine at which a match starts to count
 * (`low`) and the cosine of a near-paraphrase (`high`); see docs/decisions/search-scores.md.
 */
const CALIBRATION: Record<string, { low: number; high: number }> = {
  "local-hash@1": { low: 0.1, high: 0.6 },
  "@cf/baai/bge-m3": { low: 0.4, high: 0.78 },
};
const DEFAULT_CALIBRATION = { low: 0.3, high: 0.8 };
/** A vector match alone never reaches certainty: words the user typed must be present for that. */
const VECTOR_CEILING = 0.9;
/** Score of a segment holding the query (or each quoted phrase) word for word. */
const PHRASE_SCORE = 0.97;
/** Score of a segment holding every query word, not in order. */
const ALL_WORDS_SCORE = 0.85;

function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}

/** The calibrated 0-1 score of a cosine similarity from `model`. */
export function vectorScore(model: string, cosine: number): number {
  const { low, high } = CALIBRATION[model] ?? DEFAULT_CALIBRATION;
  return VECTOR_CEILING * clamp01((cosine - low) / (high - low));
}

/** Stems of a text's words, in order. */
export function stems(text: string): string[] {
  return tokenize(text).map(matchStem);
}

/** A parsed query: its content words and the phrases that must appear as written. */
export interface ParsedQuery {
  terms: string[];
  phrases: string[][];
  /** The phrases were quoted by the user (required), not the whole query (preferred). */
  quoted?: boolean;
}

/** Splits a query into content-word stems and phrases (quoted parts, or the whole query). */
export function parseQuery(query: string): ParsedQuery {
  const tokens = tokenize(query);
  const content = tokens.filter((token) => !isStopword(token));
  const terms = [...new Set((content.length > 0 ? content : tokens).map(matchStem))];
  const quoted = [...query.matchAll(/"([^"]+)"/g)]
    .map((match) => stems(match[1] ?? ""))
    .filter((p) => p.length > 0);
  return quoted.length > 0
    ? { terms, phrases: quoted, quoted: true }
    : { terms, phrases: [tokens.map(matchStem)] };
}

/** Whether `needle` stands in `haystack` as a run of consecutive items. */
export function containsSequence(haystack: string[], needle: string[]): boolean {
  if (needle.length === 0) return false;
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/** Share of the query's content words found in a text, 0-1. */
export function termCoverage(query: ParsedQuery, text: string): number {
  return coverageOf(query, new Set(stems(text)));
}

function coverageOf(query: ParsedQuery, present: ReadonlySet<string>): number {
  if (query.terms.length === 0) return 0;
  return query.terms.filter((term) => present.has(term)).length / query.terms.length;
}

/**
 * How well a text matches the words of a query, 0-1: the phrase as written scores highest,
 * all words in any order next, then the share of words present (squared, so one stray
 * common word does not pass a threshold).
 */
export function lexicalScore(query: ParsedQuery, text: string): number {
  const words = stems(text);
  if (query.phrases.every((phrase) => containsSequence(words, phrase))) return PHRASE_SCORE;
  const coverage = coverageOf(query, new Set(words));
  return ALL_WORDS_SCORE * coverage * coverage;
}

/**
 * `lexicalScore` over the separate texts a result shows (each cue, tag line, metadata value):
 * a phrase counts only inside one of them, never across the seam between two, and the words
 * count wherever they are. `phraseFound` says whether every phrase was found as written.
 */
export function unitsScore(
  query: ParsedQuery,
  texts: readonly string[],
): { score: number; phraseFound: boolean } {
  const units = texts.map(stems);
  const phraseFound = query.phrases.every((phrase) =>
    units.some((words) => containsSequence(words, phrase)),
  );
  if (phraseFound) return { score: PHRASE_SCORE, phraseFound };
  const coverage = coverageOf(query, new Set(units.flat()));
  return { score: ALL_WORDS_SCORE * coverage * coverage, phraseFound };
}

/** Vector and keyword evidence combined: either can carry a match, both make it stronger. */
export function fuse(vector: number, lexical: number): number {
  return Math.round((1 - (1 - vector) * (1 - lexical)) * 10_000) / 10_000;
}

/** A keyword level may OR together at most this many AND-groups (C(n, k) grows fast). */
const MAX_GROUPS = 32;
/** Levels are terms of one compound SELECT, and D1 refuses more than five. */
const MAX_LEVELS = 5;

/**
 * One FTS5 MATCH expression of keyword retrieval. `ranked` ones are ordered by BM25; the
 * others are taken in index order, which stops as soon as enough rows are found.
 */
export interface KeywordLevel {
  expression: string;
  ranked: boolean;
}

function combinations<T>(items: readonly T[], k: number): T[][] {
  if (k === 0) return [[]];
  if (items.length < k) return [];
  const [head, ...tail] = items as [T, ...T[]];
  return [...combinations(tail, k - 1).map((rest) => [head, ...rest]), ...combinations(tail, k)];
}

function binomial(n: number, k: number): number {
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return Math.round(result);
}

/**
 * Keyword retrieval as FTS5 expressions, best first: segments holding all of the query's
 * parts (content words and quoted phrases), then all but one, and so on down to any one.
 * Search scores a segment's words by the share of parts it holds (`lexicalScore`), so this
 * finds the same candidates BM25 would favour without ranking every segment that holds one
 * common word. A query with so many parts that a level would need more than MAX_GROUPS
 * AND-groups, or more than MAX_LEVELS levels, ends with one BM25-ranked OR of every part
 * instead.
 */
export function keywordLevels(query: string): KeywordLevel[] {
  const tokens = tokenize(query);
  const content = tokens.filter((token) => !isStopword(token));
  const words = content.length > 0 ? content : tokens;
  const phrases = [...query.matchAll(/"([^"]+)"/g)]
    .map((match) => tokenize(match[1] ?? "").join(" "))
    .filter(Boolean);
  const parts = [...new Set([...words, ...phrases])].map((part) => `"${part.replace(/"/g, '""')}"`);
  const levels: KeywordLevel[] = [];
  for (let k = parts.length; k >= 1; k--) {
    const last = levels.length === MAX_LEVELS - 1 && k > 1;
    if (last || binomial(parts.length, k) > MAX_GROUPS) {
      levels.push({ expression: parts.join(" OR "), ranked: true });
      break;
    }
    const groups = combinations(parts, k).map((group) =>
      group.length === 1 ? (group[0] ?? "") : `(${group.join(" AND ")})`,
    );
    levels.push({ expression: groups.join(" OR "), ranked: false });
  }
  return levels;
}
