import type { AnswerPayload, AnswerSpec, AnswerUsage, ResultState } from "../domain/answers";
import type { EvidenceKind, ExtractionCoverage, ExtractionExtent } from "../domain/evidence";
import type { QuestionMode } from "./language-reading";

/** What the engine answers for one answer spec. */
export interface EngineAnswer {
  result_state: ResultState;
  coverage: { state: "complete" | "partial" | "none"; scope: string };
  event_count: number;
  evidence_count: number;
  answer_payload: AnswerPayload;
  reason_code?: string;
  /**
   * Engine identity and model, for provenance. `method` says what a `found` or an absence rests
   * on: `lexical` (the probe's words in one sentence of the cited evidence, read by the service
   * in either engine), `model-judged` (production: an absence no word could show, taken from
   * the model's reading of everything it was sent), or `none` for an answer never computed.
   */
  provenance: {
    engine: string;
    method: "lexical" | "model-judged" | "none";
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
  /** Whose question this is (the workspace), so the model limiter shares the rate fairly. */
  tenant?: string;
  /**
   * The question's mode when the caller decides it rather than the spec's words: a workflow
   * asks whether a rule was met (it happened, or was said), never whether a rule exists.
   */
  mode?: QuestionMode | undefined;
}
