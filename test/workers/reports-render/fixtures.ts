import type { AnswerItem, AnswerType, ResultState } from "../../../src/domain/answers";
import type { EvidenceRef } from "../../../src/domain/evidence";
import type { TemplateBlock } from "../../../src/domain/report-templates";
import { renderReport } from "../../../src/services/reports/render";
import type { RenderInput, StoredAnswer } from "../../../src/services/reports/types";

/** An evidence reference of `vid_dock` between two times (seconds). */
export function ev(id: string, start: number, end: number): EvidenceRef {
  return {
    evidence_id: `evidence_${id}`,
    video_id: "vid_dock",
    segment_id: `seg_${id}`,
    kind: "transcript",
    start_time: start,
    end_time: end,
    text: `spoken words ${id}`,
  };
}

/** An answer item; attributes by key → value. */
export function item(
  id: string,
  label: string,
  state: ResultState,
  options: {
    value?: string | number | boolean;
    attributes?: Record<string, string | number | boolean>;
    evidence?: EvidenceRef[];
  } = {},
): AnswerItem {
  return {
    item_id: id,
    label,
    result_state: state,
    attributes: Object.entries(options.attributes ?? {}).map(([key, value]) => ({
      key,
      label: key,
      value,
    })),
    evidence: options.evidence ?? [],
    ...(options.value === undefined ? {} : { value: options.value }),
  };
}

/** A stored answer with a summary, optional headline value and items. */
export function answer(
  key: string,
  type: AnswerType,
  state: ResultState,
  options: {
    value?: string | number | boolean;
    unit?: string;
    summary?: string;
    items?: AnswerItem[];
    representative?: EvidenceRef[];
    /** `complete` unless given: what the engine read of the run's sources. */
    coverage?: { state: string; scope: string };
  } = {},
): StoredAnswer {
  const representative = options.representative ?? [];
  return {
    id: `ans_${key}`,
    key,
    type,
    result_state: state,
    coverage: options.coverage ?? { state: "complete", scope: "video" },
    event_count: options.items?.length ?? 0,
    evidence_count: representative.length,
    answer_payload: {
      summary: options.summary ?? `Summary of ${key}.`,
      ...(options.value === undefined ? {} : { value: options.value }),
      ...(options.unit === undefined ? {} : { unit: options.unit }),
      items: options.items ?? [],
      evidence_summary: {
        contributing_count: representative.length,
        drill_down_path: `/runs/run_demo/answers/ans_${key}`,
        precision: "exact",
        representative,
      },
    },
  };
}

/** A render input over one video with the given blocks and answers. */
export function input(
  blocks: TemplateBlock[],
  answers: StoredAnswer[],
  language = "en",
): RenderInput {
  return {
    run: {
      id: "run_demo",
      source_ids: ["vid_dock"],
      profile_ref: "prof_safety@2",
      execution_profile_ref: "balanced-analysis@1",
      limitations: [],
    },
    videos: [{ id: "vid_dock", title: "Loading dock", duration: 3725.4 }],
    notices: [],
    answers,
    template: { id: "tpl_safety", version: 3, language, blocks },
  };
}

const decoder = new TextDecoder();

/** The rendered report as text. */
export function text(renderInput: RenderInput, format: "json" | "markdown"): string {
  return decoder.decode(renderReport(renderInput, format).bytes);
}

/** A section of the JSON report as the tests read it. */
export interface JsonSection {
  block: TemplateBlock;
  kind: string;
  heading: string;
  answer_id: string | null;
  answer_key: string | null;
  answer_type: string | null;
  result_state: string | null;
  result_state_text: string | null;
  value: string | number | boolean | null;
  unit: string | null;
  fields: { key: string; label: string; text: string }[];
  paragraphs: { answer_id: string; answer_key: string; text: string }[];
  table: {
    columns: { key: string; label: string }[];
    group_by: string | null;
    groups: {
      key: string | null;
      label: string | null;
      rows: { row_id: string; result_state: string; cells: (string | null)[] }[];
    }[];
  } | null;
  notice: string | null;
  evidence: { evidence_id: string; answer_id: string; start_time: number; end_time: number }[];
}

/** The JSON report parsed, with its sections typed for the tests. */
export function json(renderInput: RenderInput): {
  report: Record<string, unknown> & { sections: JsonSection[] };
} {
  return JSON.parse(text(renderInput, "json"));
}

/** The rows of a table section as arrays of cells, group by group. */
export function rowsOf(section: JsonSection | undefined): (string | null)[][] {
  return (section?.table?.groups ?? []).flatMap((g) => g.rows.map((r) => r.cells));
}
