// Request bodies and wire types shared by the report template tests.

import type { Head, HeadPage } from "../heads/shared";

/** A report template version as the API answers it. */
export interface TemplateVersion {
  report_template_id: string;
  version: number;
  language: string;
  blocks: Record<string, unknown>[];
  created_by: string;
  created_at: string;
}

/** A report template head as the API answers it (`latest` on single reads and changes). */
export type Template = Head<TemplateVersion>;

/** A paged list of report templates. */
export type TemplatePage = HeadPage<TemplateVersion>;

/** A block using every field of the spec's Profile and report template heads section. */
export function fullBlock(): Record<string, unknown> {
  return {
    type: "table",
    answer_key: "dock_door_events",
    label: "Dock doors",
    field_labels: [{ key: "door_state", label: "State" }],
    columns: [
      { key: "start_time", label: "At" },
      { key: "door_state", label: "State" },
    ],
    group_by: "door",
    sort_by: "start_time",
    sort_direction: "asc",
    mapping: { open: "Open", closed: "Closed" },
  };
}

/** A valid version body; `n` varies the content so versions can be told apart. */
export function versionBody(n = 1, language = "en"): Record<string, unknown> {
  return {
    language,
    blocks: [
      { type: "heading", label: `Weekly dock review (revision ${n})` },
      fullBlock(),
      { type: "narrative", answer_key: "summary" },
    ],
  };
}

/** A valid create body. */
export function createBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: "Weekly dock review",
    description: "One table per dock.",
    ...versionBody(1),
    ...overrides,
  };
}
