/**
 * Renders a run's stored answers into an immutable report body. Rendering never re-runs
 * analysis and reads nothing but its input: no clock, no randomness, no locale-dependent
 * collation, so the same input gives byte-identical UTF-8 with `\n` line ends.
 *
 * Rules (the full version, with examples, is in ./README.md):
 * - Header: title (label of the first `heading` block, else "Analysis report"/"分析レポート"),
 *   run id, sources in `source_ids` order with title and duration, profile ref, execution
 *   profile, template `id@version`, a summary by result state, and limitations in words: the
 *   run's, answers not checked, uncertain or decided without everything read, the run's notices.
 * - One section per block, in template order. Answers are taken in (key, id) order. A block
 *   with `answer_key` renders that answer, or says it was not produced; a `narrative` block
 *   without one renders every answer's summary; any other block without one renders a table
 *   of all answers (key, result, value, summary, evidence).
 * - `verdict`: Pass/合格 only when the result state is `found`, the value is `true` and the
 *   coverage `complete` (else "Found in 1 of 2 videos; 1 not checked — not a pass…");
 *   Fail/不合格 for `false` when `found` or `not_found`; `uncertain` reads
 *   "Uncertain — not a pass"/"不確定（合格ではありません）"; else the state in words.
 *   `measurement`: value and unit, and the result state. `narrative`: the summary.
 *   `timeline`, `table`, `enumeration`, `comparison`, `retrieval`: the items as a table;
 *   any other type: result, value, summary and the items table.
 * - Columns: `columns` as given, else the type's defaults, then extra `field_labels` keys,
 *   then evidence. A key names a built-in field (`label`, `value`, `result_state`, `time`,
 *   `start`, `end`, `rank`, `evidence`, `item_id`) or else an item attribute.
 * - Rows: timelines by start time (attribute `start`/`start_time`, else earliest evidence),
 *   other types in the engine's order; `sort_by`/`sort_direction` override; empty values
 *   last; ties by item id. `group_by` groups by the displayed value; groups in ascending order.
 * - `mapping[raw] = display` renames displayed values and the states `found`/`not_found`.
 *   Nothing displayed on a check that is not `found` (or is `false`) may read as a pass: yes/no
 *   values of such checks show the state instead, and pass words from a mapping or the engine
 *   are replaced the same way.
 * - Evidence is cited inline as `[evidence_… 00:05–00:08]`, never as a URL (URLs expire;
 *   they belong to the manifest). Times are `mm:ss`, or `h:mm:ss` from an hour on.
 * - Languages: `en` and `ja` strings; any other language renders with `en` strings.
 */
import { buildReport } from "./build";
import { toJson } from "./json";
import { toMarkdown } from "./markdown";
import type { ReportModel } from "./model";
import type { RenderedReport, RenderInput } from "./types";

const encoder = new TextEncoder();

/** Renders a report body in one format from a run's stored answers and a template. */
export function renderReport(input: RenderInput, format: "json" | "markdown"): RenderedReport {
  return renderModel(buildReport(input), format);
}

/**
 * Writes an already built model in one format, so a request for several formats builds it
 * once. Renderers only read the model: each format's bytes are those `renderReport` gives.
 */
export function renderModel(model: ReportModel, format: "json" | "markdown"): RenderedReport {
  if (format === "json") {
    return { format, content_type: "application/json", bytes: encoder.encode(toJson(model)) };
  }
  return { format, content_type: "text/markdown", bytes: encoder.encode(toMarkdown(model)) };
}
