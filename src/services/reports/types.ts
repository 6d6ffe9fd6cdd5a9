import type { AnswerPayload, AnswerType, ResultState } from "../../domain/answers";
import type { EvidenceRef } from "../../domain/evidence";
import type { TemplateBlock } from "../../domain/report-templates";

/** The template a report is rendered from: a stored version or an inline one. */
export interface RenderTemplate {
  /** `tpl_…` for stored templates, the inline template's own id otherwise. */
  id: string;
  version: number;
  language: string;
  blocks: TemplateBlock[];
}

/** A stored answer of a run (the spec's Answer section), as rendering reads it. */
export interface StoredAnswer {
  id: string;
  key: string;
  type: AnswerType;
  result_state: ResultState;
  coverage: { state: string; scope: string };
  event_count: number;
  evidence_count: number;
  answer_payload: AnswerPayload;
  reason_code?: string;
}

/** A notice of the run (GET /runs/{run_id} `notices`): here, a video nothing was understood of. */
export interface RunNoticeInput {
  code: string;
  video_id: string;
  /** The run's own words (English), as GET /runs/{run_id} gives them. */
  detail: string;
}

/** Everything a report is rendered from. Nothing time-dependent: same input, same bytes. */
export interface RenderInput {
  run: {
    id: string;
    source_ids: string[];
    /** `prof_…@<version>` of the analysed profile. */
    profile_ref: string;
    execution_profile_ref: string;
    limitations: string[];
    /** A workflow run's header names its rulebook where an analysis run's names its profile. */
    kind?: "analysis" | "workflow";
  };
  videos: { id: string; title: string; duration: number }[];
  /** The run's notices as stored state gave them at report time, in `source_ids` order. */
  notices: RunNoticeInput[];
  answers: StoredAnswer[];
  template: RenderTemplate;
  /**
   * Deleted sources whose quotes, titles and links the report withholds: it keeps its
   * structure and verdicts, and a notice says each source was deleted.
   */
  redacted?: string[];
}

/** A rendered report body. */
export interface RenderedReport {
  format: "json" | "markdown";
  content_type: "application/json" | "text/markdown";
  bytes: Uint8Array;
}

/** Every evidence reference a report cites, for its manifest (trust bindings). */
export interface CitedEvidence {
  answer_id: string;
  evidence: EvidenceRef;
}
