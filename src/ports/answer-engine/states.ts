import type { ReasonCode, ResultState } from "../../domain/answers";
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
 * One scope's state from its matches: any opposing match → uncertain (conflicting); a
 * supporting match → found; only borderline matches → uncertain (below threshold); nothing,
 * with everything read and extracted → not_found; otherwise not_checked. With no probe there
 * is nothing an absence could disprove, so not_found becomes uncertain (no_probe_terms).
 */
export function decideScope(matches: SegmentMatch[], scope: ScopeCheck, hasProbe = true): Decision {
  if (matches.some((m) => m.opposing))
    return { state: "uncertain", reason: "conflicting_evidence" };
  if (matches.some(isSupporting)) return { state: "found" };
  if (matches.length > 0) return { state: "uncertain", reason: "below_threshold" };
  const incomplete = incompleteReason(scope);
  if (incomplete !== undefined) return { state: "not_checked", reason: incomplete };
  if (!hasProbe) return { state: "uncertain", reason: "no_probe_terms" };
  return { state: "not_found", reason: "no_supporting_evidence" };
}

/** Decisions per video, in source order. */
export function decideVideos(
  videos: VideoInspection[],
  matches: SegmentMatch[],
  hasProbe = true,
): Decision[] {
  return videos.map((v) =>
    decideScope(
      matches.filter((m) => m.videoIndex === v.index),
      v,
      hasProbe,
    ),
  );
}

// When several scopes share the deciding state, the most actionable reason is reported.
const REASON_PRIORITY: ReasonCode[] = [
  "model_failed",
  "conflicting_evidence",
  "budget_exhausted",
  "required_evidence_not_extracted",
  "partial_coverage",
  "language_mismatch",
  "context_limit",
  "evidence_not_in_index",
  "no_cited_evidence",
  "unbacked_value",
  "below_threshold",
  "insufficient_evidence",
  "no_probe_terms",
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
