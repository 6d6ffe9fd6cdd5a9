import type {
  EvidenceKind,
  ExtractionCoverage,
  ExtractionExtent,
} from "../media-understanding/port";

/** Answer types of spec section 2.2. */
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

/** Result states of an answer (spec 2.2). `uncertain` is never reported as a pass. */
export const RESULT_STATES = ["found", "not_found", "uncertain", "not_checked"] as const;
/** One result state. */
export type ResultState = (typeof RESULT_STATES)[number];

/** An answer spec of a profile version, as stored (spec 2.8, snake_case wire shape). */
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

/** One span of a segment that an answer cites. Times in seconds. */
export interface EvidenceRef {
  /** Stable id: `evidence_` + a hash of (segment id, kind, start, end). */
  evidence_id: string;
  video_id: string;
  segment_id: string;
  kind: EvidenceKind;
  start_time: number;
  end_time: number;
  /** The words or description the span holds. */
  text: string;
}

/** A named value of an item (spec 2.2 "Answer attribute"). */
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
}

/** Spec 2.2 "Answer evidence summary". */
export interface EvidenceSummary {
  contributing_count: number;
  drill_down_path: string;
  precision: "exact" | "limited" | "unknown";
  representative: EvidenceRef[];
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
}

/** Resources an answer consumed. */
export interface AnswerUsage {
  input_tokens: number;
  output_tokens: number;
  cached_input_tokens: number;
  /** Seconds of media the engine inspected. */
  media_seconds: number;
}

/** What the engine answers for one answer spec. */
export interface EngineAnswer {
  result_state: ResultState;
  coverage: { state: "complete" | "partial" | "none"; scope: string };
  event_count: number;
  evidence_count: number;
  answer_payload: AnswerPayload;
  reason_code?: string;
  /**
   * Engine identity and model, for provenance. `method` says what `found` means: `lexical`
   * (the probe's words in one sentence of the cited evidence) or `model-cited` (a model's
   * judgement, kept only with citations that exist), or `none` for an answer never computed.
   */
  provenance: {
    engine: string;
    method: "lexical" | "model-cited" | "none";
    model?: string;
    rules?: string;
  };
  usage: AnswerUsage;
  /** True when the budget ran out before the engine inspected everything it needed. */
  budget_exhausted: boolean;
}

/** One segment of a video index, as the engine reads it. */
export interface EngineSegment {
  id: string;
  start: number;
  end: number;
  transcript: string;
  scene_description: string;
  tags: string[];
  evidence: { kind: EvidenceKind; start: number; end: number; text: string; source: string }[];
}

/** One source video with its whole index. */
export interface EngineVideo {
  id: string;
  title: string;
  duration: number;
  /** Which evidence kinds processing extracted for the whole video. */
  coverage: ExtractionCoverage;
  /**
   * What each kind inspected, measured; absent for videos indexed before it was recorded, whose
   * extent is then read from `coverage` (docs/answer-engine.md §2).
   */
  extent?: ExtractionExtent;
  limitations: string[];
  segments: EngineSegment[];
}

/** What is left of the run's processing budget when an answer starts. */
export interface BudgetRemaining {
  media_seconds: number;
  tokens: number;
}

/** Everything the engine needs for one answer. */
export interface AnswerRequest {
  run_id: string;
  instructions: string;
  spec: AnswerSpec;
  videos: EngineVideo[];
  locale: string;
  budget: BudgetRemaining;
}

/** Answers one answer spec over the indexed videos; two adapters (local rules, Workers AI). */
export interface AnswerEngine {
  readonly id: string;
  answer(request: AnswerRequest): Promise<EngineAnswer>;
}
