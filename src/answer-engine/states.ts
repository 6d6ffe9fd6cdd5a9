import type { ReasonCode, ResultState } from "../domain/answers";
import type { VideoInspection } from "./inspection";
import { isSupporting, type SegmentMatch } from "./matching";

/** A result state with the reason that decided it (none for `found`). */
export interface Decision {
  state: ResultState;
  reason?: ReasonCode;
}

/** The part of a video a decision covers: a whole video, or half of one. */
export interface ScopeCheck {
  extracted: boolean;
  /** Why the evidence does not back an absence (when not `extracted`). */
  gap?: ReasonCode | undefined;
  fullyRead: boolean;
}

/** Why a scope cannot prove an absence, or undefined when it can. */
export function incompleteReason(scope: ScopeCheck): ReasonCode | undefined {
  if (!scope.extracted) return scope.gap ?? "required_evidence_not_extracted";
  if (!scope.fullyRead) return "budget_exhausted";
  return undefined;
}

/**
 * What an absence of matches can show: `backed` (a quoted phrase not said is not said; a
 * model judged meaning), `lexical` (words not found: the same thing may be said in other words,
 * so nothing is claimed absent), `none` (the spec names nothing to look for).
 */
export type AbsenceBasis = "backed" | "lexical" | "none";

/** The absence basis of probes: none without any, backed when all are quoted phrases. */
export function absenceBasis(probes: readonly { literal: boolean }[]): AbsenceBasis {
  if (probes.length === 0) return "none";
  return probes.every((p) => p.literal) ? "backed" : "lexical";
}

/**
 * One scope's state from its matches: a strong opposing match → uncertain (conflicting, or
 * unclear polarity); a supporting match → found; a borderline opposing match → uncertain; sentences with every word but stating a rule where
 * the question asks what happened (or the reverse) → uncertain; only borderline matches →
 * uncertain (below threshold); nothing,
 * with everything read and extracted → not_found; otherwise not_checked. With no probe there
 * is nothing an absence could disprove (no_probe_terms), and words not found are no proof that
 * the thing was not said in other words (no_literal_match): both uncertain, never not_found.
 */
export function decideScope(
  matches: SegmentMatch[],
  scope: ScopeCheck,
  absence: AbsenceBasis = "backed",
): Decision {
  const opposing = matches.filter((m) => m.opposing);
  const opposed = (ms: SegmentMatch[]): Decision => ({
    state: "uncertain",
    reason: ms.every((m) => m.unclearPolarity) ? "unclear_polarity" : "conflicting_evidence",
  });
  // A sentence with every probe word, negated, contradicts support; a borderline one (half the
  // words) does not, but still keeps an absence from being claimed.
  const strongOpposing = opposing.filter((m) => m.strong);
  if (strongOpposing.length > 0) return opposed(strongOpposing);
  if (matches.some(isSupporting)) return { state: "found" };
  if (opposing.length > 0) return opposed(opposing);
  const mismatch = matches.find((m) => m.modeMismatch !== null)?.modeMismatch;
  if (mismatch === "instruction")
    return { state: "uncertain", reason: "instruction_not_observation" };
  if (mismatch === "observation")
    return { state: "uncertain", reason: "observation_not_instruction" };
  if (mismatch === "unclear") return { state: "uncertain", reason: "unclear_statement" };
  if (matches.length > 0) return { state: "uncertain", reason: "below_threshold" };
  const incomplete = incompleteReason(scope);
  if (incomplete !== undefined) return { state: "not_checked", reason: incomplete };
  if (absence === "none") return { state: "uncertain", reason: "no_probe_terms" };
  if (absence === "lexical") return { state: "uncertain", reason: "no_literal_match" };
  return { state: "not_found", reason: "no_supporting_evidence" };
}

/** Reasons of an answer some of whose matches negate (or may negate) what it looks for. */
export const OPPOSING_REASONS: ReadonlySet<ReasonCode> = new Set([
  "conflicting_evidence",
  "unclear_polarity",
]);

/** Decisions per video, in source order. */
export function decideVideos(
  videos: VideoInspection[],
  matches: SegmentMatch[],
  absence: AbsenceBasis = "backed",
): Decision[] {
  return videos.map((v) =>
    decideScope(
      matches.filter((m) => m.videoIndex === v.index),
      v,
      absence,
    ),
  );
}

// When several scopes share the deciding state, the most actionable reason is reported.
export const REASON_PRIORITY: readonly ReasonCode[] = [
  "model_error",
  "model_failed",
  "conflicting_evidence",
  "unclear_polarity",
  "budget_exhausted",
  "speech_not_transcribed",
  "required_evidence_not_extracted",
  "partial_coverage",
  "language_mismatch",
  "language_unsupported",
  "context_limit",
  "evidence_not_in_index",
  "no_cited_evidence",
  "unsupported_citation",
  "unbacked_value",
  "quantity_not_stated",
  "instruction_not_observation",
  "observation_not_instruction",
  "unclear_statement",
  "paraphrase_unverified",
  "unrelated_citation",
  "below_threshold",
  "insufficient_evidence",
  "no_probe_terms",
  "no_literal_match",
  "no_supporting_evidence",
  "no_sources",
];

function pick(decisions: Decision[], order: ResultState[]): Decision {
  if (decisions.length === 0) return { state: "not_checked", reason: "no_sources" };
  for (const state of order) {
    const with_ = decisions.filter((d) => d.state === state);
    if (with_.length === 0) continue;
    if (state === "found") return { state };
    const reasons = with_.flatMap((d) => (d.reason ? [d.reason] : []));
    const reason = REASON_PRIORITY.find((r) => reasons.includes(r));
    return reason === undefined ? { state } : { state, reason };
  }
  return { state: "not_checked", reason: "no_sources" };
}

/**
 * Across videos for "does it happen": found anywhere → found; else any uncertain →
 * uncertain; else any not_checked → not_checked (never not_found over an unchecked video);
 * else not_found.
 */
export function aggregateAny(decisions: Decision[]): Decision {
  return pick(decisions, ["found", "uncertain", "not_checked", "not_found"]);
}

/**
 * Across scopes that must all be known (the sides of a comparison): any not_checked →
 * not_checked; else any uncertain → uncertain; else any found → found; else not_found.
 */
export function aggregateAll(decisions: Decision[]): Decision {
  return pick(decisions, ["not_checked", "uncertain", "found", "not_found"]);
}
