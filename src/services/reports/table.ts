import type { TemplateBlock } from "../../domain/report-templates";
import type { DisplayContext } from "./display";
import { compareNumbers, compareText } from "./format";
import type { Table, TableGroup, TableRow } from "./model";
import { cellOf, type RowSource, type SortKey, sortKeyOf } from "./rows";
import { lookup, type ReportStrings } from "./strings";

/** Which built-in columns a block shows when it names no `columns`. */
export type TableLayout = "timeline" | "retrieval" | "items" | "overview";

const DEFAULT_COLUMNS: Record<TableLayout, string[]> = {
  timeline: ["time", "label", "result_state"],
  retrieval: ["rank", "label", "time", "value", "result_state"],
  items: ["label", "value", "result_state"],
  overview: ["answer_key", "result_state", "value", "summary"],
};

/** A column label: the block's `field_labels`, else the language's fixed label, else the key. */
export function labelFor(key: string, block: TemplateBlock, strings: ReportStrings): string {
  const custom = block.field_labels?.find((f) => f.key === key)?.label;
  if (custom !== undefined && custom !== "") return custom;
  return lookup(strings.fieldLabels, key) ?? key;
}

/** `columns` as given; otherwise the layout's defaults, then `field_labels` keys, then evidence. */
export function columnsFor(
  block: TemplateBlock,
  layout: TableLayout,
  strings: ReportStrings,
): Table["columns"] {
  if (block.columns !== undefined && block.columns.length > 0) {
    const chosen = block.columns.map((c) => ({
      key: c.key,
      label: c.label === "" ? labelFor(c.key, block, strings) : c.label,
    }));
    // A row's state is always shown: without it a not_found or uncertain row reads like a found one.
    if (chosen.some((c) => c.key === "result_state")) return chosen;
    return [...chosen, { key: "result_state", label: labelFor("result_state", block, strings) }];
  }
  const keys = [...DEFAULT_COLUMNS[layout]];
  for (const field of block.field_labels ?? []) {
    if (!keys.includes(field.key) && field.key !== "evidence") keys.push(field.key);
  }
  keys.push("evidence");
  return keys.map((key) => ({ key, label: labelFor(key, block, strings) }));
}

function typeRank(key: Exclude<SortKey, null>): number {
  return typeof key === "number" ? 0 : typeof key === "string" ? 1 : 2;
}

/** Ascending order of non-null keys: numbers, then strings, then booleans. */
function compareKeys(a: Exclude<SortKey, null>, b: Exclude<SortKey, null>): number {
  const byType = typeRank(a) - typeRank(b);
  if (byType !== 0) return byType;
  if (typeof a === "number" && typeof b === "number") return compareNumbers(a, b);
  if (typeof a === "string" && typeof b === "string") return compareText(a, b);
  return Number(a) - Number(b);
}

/** Null last in both directions; `desc` flips only the comparison of real values. */
function compareSortKeys(a: SortKey, b: SortKey, direction: "asc" | "desc"): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  const order = compareKeys(a, b);
  return direction === "desc" ? -order : order;
}

/** Rows sorted by `sort_by` (or the layout's natural order), ties by id then engine order. */
export function sortRows(rows: readonly RowSource[], block: TemplateBlock, layout: TableLayout) {
  const key = block.sort_by ?? (layout === "timeline" ? "start" : "rank");
  const direction = block.sort_direction === "desc" ? "desc" : "asc";
  const keyed = rows.map((row) => ({ row, key: sortKeyOf(row, key) }));
  keyed.sort(
    (a, b) =>
      compareSortKeys(a.key, b.key, direction) ||
      compareText(a.row.id, b.row.id) ||
      a.row.rank - b.row.rank,
  );
  return keyed.map((entry) => entry.row);
}

interface GroupDraft {
  group: TableGroup;
  minKey: SortKey;
}

/** A tabular section: columns, rows sorted, then grouped by the displayed `group_by` value. */
export function buildTable(
  rows: readonly RowSource[],
  block: TemplateBlock,
  layout: TableLayout,
  ctx: DisplayContext,
): Table {
  const columns = columnsFor(block, layout, ctx.strings);
  const sorted = sortRows(rows, block, layout);
  const toRow = (row: RowSource): TableRow => ({
    row_id: row.id,
    result_state: row.state,
    cells: columns.map((column) => cellOf(row, column.key, ctx)),
  });
  const groupBy = block.group_by;
  if (groupBy === undefined || groupBy === "") {
    const groups = sorted.length > 0 ? [{ key: null, label: null, rows: sorted.map(toRow) }] : [];
    return { columns, group_by: null, groups };
  }
  // Grouping uses the displayed text, not the raw value: an uncertain `true` must not land in
  // the group of the found ones.
  const groupLabel = labelFor(groupBy, block, ctx.strings);
  const drafts: GroupDraft[] = [];
  for (const row of sorted) {
    const key = cellOf(row, groupBy, ctx).text;
    const sortKey = sortKeyOf(row, groupBy);
    let draft = drafts.find((d) => d.group.key === key);
    if (draft === undefined) {
      const label = ctx.strings.groupLabel(groupLabel, key ?? "—");
      draft = { group: { key, label, rows: [] }, minKey: sortKey };
      drafts.push(draft);
    } else if (compareSortKeys(sortKey, draft.minKey, "asc") < 0) {
      draft.minKey = sortKey;
    }
    draft.group.rows.push(toRow(row));
  }
  drafts.sort(
    (a, b) =>
      compareSortKeys(a.minKey, b.minKey, "asc") ||
      compareText(a.group.key ?? "\uffff", b.group.key ?? "\uffff"),
  );
  return { columns, group_by: groupBy, groups: drafts.map((d) => d.group) };
}
