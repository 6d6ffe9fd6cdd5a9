import type { EvidenceRef, EvidenceSummary, Redaction } from "./evidence";

/** Answer types of the spec's Answer section. */
export const ANSWER_TYPES = [
  "verdict",
  "measurement",
  "enumeration",
  "timeline",
  "comparison",
  "retrieval",
  "synthesis",
] as const;
/** One answer type. */
export type AnswerType = (typeof ANSWER_TYPES)[number];

/**
 * Result states of an answer (the spec's Answer section). `uncertain` is never reported as a pass.
 */
export const RESULT_STATES = ["found", "not_found", "uncertain", "not_checked"] as const;
/** One result state. */
export type ResultState = (typeof RESULT_STATES)[number];

/**
 * An answer spec of a profile version, as stored (the spec's Profile and report template heads
 * section, snake_case wire shape).
 */
export interface AnswerSpec {
  answer_key: string;
  answer_type: AnswerType;
  aggregation_level?: string;
  coverage?: string;
  temporal_granularity?: string;
  temporal_scope?: string;
  evidence?: { accepted_types?: string[]; per_field?: boolean; required?: boolean };
  fields?: {
    key: string;
    label: string;
    description?: string;
    type?: string;
    required?: boolean;
  }[];
  /** Free text that says what to look for (optional; the profile instructions also apply). */
  description?: string;
}

/** A named value of an item ("Answer attribute" in the spec's Answer section). */
export interface AnswerAttribute {
  key: string;
  label: string;
  unit?: string;
  value?: string | number | boolean;
  evidence?: EvidenceRef[];
}

/** One item of an answer: an enumerated value, a timeline event, a match, a comparison side. */
export interface AnswerItem {
  item_id: string;
  label: string;
  result_state: ResultState;
  attributes: AnswerAttribute[];
  evidence: EvidenceRef[];
  value?: string | number | boolean;
  /** Set on reads when the item cites or names a deleted video: its label and text are withheld. */
  redacted?: Redaction;
}

/** The payload of an answer (its shape is this service's decision; see docs/answer-engine.md). */
export interface AnswerPayload {
  /** One sentence saying what was found, or why nothing could be said. */
  summary: string;
  /** The answer's headline value: verdict true/false, measurement number, ... */
  value?: string | number | boolean;
  unit?: string;
  items: AnswerItem[];
  evidence_summary: EvidenceSummary;
  /** Set on reads when the answer cites a deleted video: its summary and text value are withheld. */
  redacted?: Redaction;
}

/** Resources an answer consumed. */
export interface AnswerUsage {
  input_tokens: number;
  output_tokens: number;
  cached_input_tokens: number;
  /** Seconds of media the engine inspected. */
  media_seconds: number;
}

/** Why an answer (or item) is not `found`; see docs/answer-engine.md. */
export type ReasonCode =
  | "no_supporting_evidence"
  | "required_evidence_not_extracted"
  | "speech_not_transcribed"
  | "partial_coverage"
  | "language_mismatch"
  | "conflicting_evidence"
  | "unclear_polarity"
  | "instruction_not_observation"
  | "observation_not_instruction"
  | "unclear_statement"
  | "no_literal_match"
  | "language_unsupported"
  | "quantity_not_stated"
  | "unsupported_citation"
  | "unrelated_citation"
  | "paraphrase_unverified"
  | "below_threshold"
  | "budget_exhausted"
  | "no_probe_terms"
  | "no_sources"
  | "no_cited_evidence"
  | "evidence_not_in_index"
  | "context_limit"
  | "insufficient_evidence"
  | "unbacked_value"
  | "model_failed"
  | "model_error";
