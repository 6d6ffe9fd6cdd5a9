import type { EvidenceKind, Redaction } from "./evidence";

/**
 * What a finding says about its rule. A requirement: the video shows it met (`found`), or
 * nothing inspected supports it (`not_found`). A hazard: the video shows it occur (`found`), or
 * nothing inspected shows it (`not_found`). Either could not be judged (`uncertain`,
 * `not_checked`): a person must look, and it is never a pass.
 */
export const FINDING_TYPES = [
  "requirement_met",
  "requirement_not_shown",
  "hazard_observed",
  "hazard_not_shown",
  "needs_review",
] as const;
/** One finding type. */
export type FindingType = (typeof FINDING_TYPES)[number];

/**
 * Severities: `info` for a requirement met or a hazard not shown; otherwise (a hazard seen, a
 * requirement not shown, a finding to review) the rule's own, `medium` when it has none.
 */
export const FINDING_SEVERITIES = ["info", "low", "medium", "high", "critical"] as const;
/** One finding severity. */
export type FindingSeverity = (typeof FINDING_SEVERITIES)[number];

/** Review statuses: every finding starts `open`; a review moves it (and can move it back). */
export const FINDING_STATUSES = ["open", "confirmed", "dismissed", "resolved"] as const;
/** One review status. */
export type FindingStatus = (typeof FINDING_STATUSES)[number];

/** Statuses a review may set. */
export const REVIEW_STATUSES = FINDING_STATUSES;

/** One cited span of a finding, as stored (the clip URL is signed when read). */
export interface FindingEvidence {
  id: string;
  video_id: string;
  segment_id: string;
  kind: EvidenceKind;
  start_time: number;
  end_time: number;
  text: string;
  /** Set on reads when the finding's video was deleted: `text` is a marker, and no clip is linked. */
  redacted?: Redaction;
}

/** How a finding was made (metadata in the spec's Finding section). */
export interface FindingMetadata {
  extraction_method: string;
  frame_number?: number;
  limitations: string[];
  quality: "exact" | "limited" | "unknown";
}
