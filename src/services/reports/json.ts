import type { TemplateBlock } from "../../domain/report-templates";
import { SOURCE_DELETED } from "../deletion/redact";
import { compareText } from "./format";
import {
  type Cell,
  type Citation,
  type ReportModel,
  type Section,
  sectionCitations,
  uniqueCitations,
} from "./model";

/** A cell or paragraph as one string: its text, then its citations. */
export function joinCited(text: string | null, citations: readonly Citation[]): string | null {
  const parts = [text ?? "", ...citations.map((c) => c.label)].filter((part) => part !== "");
  return parts.length > 0 ? parts.join(" ") : null;
}

function cellText(cell: Cell): string | null {
  return joinCited(cell.text, cell.citations);
}

/**
 * The block as given, with its fields in one fixed order and the mapping's keys sorted, so
 * two equal templates stored with different key orders give the same bytes.
 */
function blockJson(block: TemplateBlock): Record<string, unknown> {
  const out: Record<string, unknown> = { type: block.type };
  if (block.answer_key !== undefined) out.answer_key = block.answer_key;
  if (block.label !== undefined) out.label = block.label;
  if (block.field_labels !== undefined) {
    out.field_labels = block.field_labels.map((f) => ({ key: f.key, label: f.label }));
  }
  if (block.columns !== undefined) {
    out.columns = block.columns.map((c) => ({ key: c.key, label: c.label }));
  }
  if (block.group_by !== undefined) out.group_by = block.group_by;
  if (block.sort_by !== undefined) out.sort_by = block.sort_by;
  if (block.sort_direction !== undefined) out.sort_direction = block.sort_direction;
  if (block.mapping !== undefined) {
    const mapping: Record<string, string> = {};
    const keys = Object.keys(block.mapping).sort(compareText);
    for (const key of keys) mapping[key] = String(block.mapping[key]);
    out.mapping = mapping;
  }
  return out;
}

function sectionJson(section: Section): Record<string, unknown> {
  const table = section.table;
  return {
    block: blockJson(section.block),
    kind: section.kind,
    heading: section.heading,
    answer_id: section.answer?.id ?? null,
    answer_key: section.answer?.key ?? null,
    answer_type: section.answer?.type ?? null,
    result_state: section.answer?.result_state ?? null,
    result_state_text: section.result_state_text,
    value: section.value,
    unit: section.unit,
    fields: section.fields.map((f) => ({ key: f.key, label: f.label, text: f.text })),
    paragraphs: section.paragraphs.map((p) => ({
      answer_id: p.answer_id,
      answer_key: p.answer_key,
      text: joinCited(p.text, p.citations) ?? "",
    })),
    table:
      table === null
        ? null
        : {
            columns: table.columns.map((c) => ({ key: c.key, label: c.label })),
            group_by: table.group_by,
            groups: table.groups.map((g) => ({
              key: g.key,
              label: g.label,
              rows: g.rows.map((r) => ({
                row_id: r.row_id,
                result_state: r.result_state,
                cells: r.cells.map(cellText),
              })),
            })),
          },
    notice: section.notice,
    evidence: uniqueCitations(sectionCitations(section)).map((c) => ({
      evidence_id: c.evidence.evidence_id,
      answer_id: c.answer_id,
      video_id: c.evidence.video_id,
      kind: c.evidence.kind,
      start_time: c.evidence.start_time,
      end_time: c.evidence.end_time,
      ...(c.evidence.redacted ? { redacted: c.evidence.redacted } : {}),
    })),
  };
}

/** The JSON report: `{ "report": … }`, keys in a fixed order, 2-space indent, final newline. */
export function toJson(model: ReportModel): string {
  const report = {
    report: {
      title: model.title,
      language: model.language,
      run_id: model.run_id,
      template: { id: model.template.id, version: model.template.version },
      profile_ref: model.profile_ref,
      execution_profile_ref: model.execution_profile_ref,
      sources: model.sources.map((s) => ({
        video_id: s.video_id,
        title: s.title,
        duration: s.duration,
        duration_text: s.duration_text,
        ...(s.redacted ? { redacted: SOURCE_DELETED } : {}),
      })),
      limitations: model.limitations.map((l) => ({ code: l.code, text: l.text })),
      notices: model.notices.map((n) => ({ code: n.code, video_id: n.video_id, detail: n.detail })),
      sections: model.sections.map(sectionJson),
    },
  };
  return `${JSON.stringify(report, null, 2)}\n`;
}
