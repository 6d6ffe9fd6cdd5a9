import type { AnswerType, ResultState } from "../../domain/answers";
import type { EvidenceRef } from "../../domain/evidence";
import type { TemplateBlock } from "../../domain/report-templates";

/**
 * The format-neutral report both renderers write out. Building it once and writing it twice
 * is what keeps the JSON and Markdown reports, and the cited evidence, saying the same thing.
 */
export interface ReportModel {
  title: string;
  language: string;
  run_id: string;
  template: { id: string; version: number };
  profile_ref: string;
  /** What `profile_ref` names: a profile, or a workflow run's rulebook. */
  profile_kind: "profile" | "rulebook";
  execution_profile_ref: string;
  sources: ReportSource[];
  /**
   * What limits the answers, in words: the run's limitations; how many answers are not
   * checked, uncertain, or decided on part of the sources, and why; then the run's notices.
   */
  limitations: { code: string; text: string }[];
  /** The run's notices, each in the report's language, in `source_ids` order. */
  notices: ReportNotice[];
  /**
   * The answers counted by result state, in words ("1 found, 2 not checked (3 answers)"),
   * then the sources nothing was understood of and the answers resting on part of them.
   */
  summary: string;
  sections: Section[];
}

/** A notice of the run as the report carries it (the run's `notices`, in the report's words). */
export interface ReportNotice {
  code: string;
  video_id: string;
  detail: string;
}

/** A source video of the run as the header lists it. */
export interface ReportSource {
  video_id: string;
  title: string | null;
  duration: number | null;
  duration_text: string | null;
  /** The video was deleted: its title and duration are withheld. */
  redacted: boolean;
}

/** One evidence reference cited inline, with the answer that cites it. */
export interface Citation {
  answer_id: string;
  evidence: EvidenceRef;
  /** `[evidence_… 00:05–00:08]` */
  label: string;
}

/** A table cell: display text (null when empty) followed by its citations. */
export interface Cell {
  text: string | null;
  citations: Citation[];
}

/** A labelled line such as `Verdict: Pass`. */
export interface Field {
  key: string;
  label: string;
  text: string;
}

/** An answer's summary with the evidence it rests on; `lead` names the answer when many are shown. */
export interface Paragraph {
  answer_id: string;
  answer_key: string;
  lead: string | null;
  text: string;
  citations: Citation[];
}

/** One table row: an answer item, or a whole answer in an overview. */
export interface TableRow {
  row_id: string;
  result_state: ResultState;
  cells: Cell[];
}

/** Rows sharing the displayed value of the `group_by` column (one unnamed group without it). */
export interface TableGroup {
  key: string | null;
  label: string | null;
  rows: TableRow[];
}

/** Columns and grouped rows of a tabular section. */
export interface Table {
  columns: { key: string; label: string }[];
  group_by: string | null;
  groups: TableGroup[];
}

/** How a section is laid out; see the rules in render.ts. */
export type SectionKind =
  | "title"
  | "heading"
  | "missing"
  | "narrative"
  | "verdict"
  | "measurement"
  | "table"
  | "listing"
  | "overview";

/** The rendering of one template block. */
export interface Section {
  block: TemplateBlock;
  kind: SectionKind;
  heading: string;
  answer: { id: string; key: string; type: AnswerType; result_state: ResultState } | null;
  result_state_text: string | null;
  value: string | number | boolean | null;
  unit: string | null;
  fields: Field[];
  paragraphs: Paragraph[];
  table: Table | null;
  notice: string | null;
}

/** Every citation of a section in reading order: paragraphs, then table rows cell by cell. */
export function sectionCitations(section: Section): Citation[] {
  const fromParagraphs = section.paragraphs.flatMap((p) => p.citations);
  const fromTable = (section.table?.groups ?? []).flatMap((group) =>
    group.rows.flatMap((row) => row.cells.flatMap((cell) => cell.citations)),
  );
  return [...fromParagraphs, ...fromTable];
}

/** Citations with one entry per evidence id, first occurrence kept. */
export function uniqueCitations(citations: readonly Citation[]): Citation[] {
  const seen = new Set<string>();
  return citations.filter((citation) => {
    if (seen.has(citation.evidence.evidence_id)) return false;
    seen.add(citation.evidence.evidence_id);
    return true;
  });
}
