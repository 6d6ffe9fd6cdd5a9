/** A block of a report template version (the spec's Profile and report template heads section). */
export interface TemplateBlock {
  type: string;
  answer_key?: string;
  label?: string;
  field_labels?: { key: string; label: string }[];
  columns?: { key: string; label: string }[];
  group_by?: string;
  sort_by?: string;
  sort_direction?: "asc" | "desc";
  mapping?: Record<string, string>;
}
