import type { EvidenceRef } from "../../domain/evidence";
import type { TemplateBlock } from "../../domain/report-templates";
import type { PartialCoverage } from "./coverage";
import { type DisplayContext, publicValue, stateText, valueText, verdictText } from "./display";
import { citationLabel, formatRange, orderEvidence } from "./format";
import type { Field, Paragraph, Section, SectionKind } from "./model";
import { answerRows, isLowerBound, itemRows } from "./rows";
import { lookup, type ReportStrings } from "./strings";
import { buildTable, labelFor, type TableLayout } from "./table";
import type { StoredAnswer } from "./types";

/** What every block renderer reads: the run's answers in report order and the language. */
export interface BlockContext {
  answers: readonly StoredAnswer[];
  /** The first of `answers` under each key, so a block finds its answer in one lookup. */
  byKey: ReadonlyMap<string, StoredAnswer>;
  strings: ReportStrings;
  /** Whether this block is the first `heading` block, whose label is the report's title. */
  isTitle: boolean;
  /** How much of the sources an answer read, when it did not read them all whole. */
  partialOf: (answer: StoredAnswer) => PartialCoverage | undefined;
}

const TABLE_LAYOUTS: Record<string, TableLayout> = {
  timeline: "timeline",
  table: "items",
  enumeration: "items",
  comparison: "items",
  retrieval: "retrieval",
};

function displayContext(block: TemplateBlock, strings: ReportStrings): DisplayContext {
  return { strings, mapping: block.mapping ?? {} };
}

function emptySection(block: TemplateBlock, kind: SectionKind, heading: string): Section {
  return {
    block,
    kind,
    heading,
    answer: null,
    result_state_text: null,
    value: null,
    unit: null,
    fields: [],
    paragraphs: [],
    table: null,
    notice: null,
  };
}

function headingOf(block: TemplateBlock, strings: ReportStrings): string {
  if (block.label !== undefined && block.label.trim() !== "") return block.label;
  if (block.answer_key !== undefined && block.answer_key !== "") return block.answer_key;
  return lookup(strings.blockTitles, block.type) ?? block.type;
}

/** Sentences quoted with their times at most, so a reader needs no evidence id. */
const QUOTED = 3;

/**
 * A found or uncertain answer's summary with the sentences it rests on quoted and timed,
 * those the summary does not quote already: a reader sees what was said, not only an id.
 */
function withQuotes(answer: StoredAnswer, evidence: readonly EvidenceRef[]): string {
  const summary = answer.answer_payload.summary.trim();
  if (answer.result_state !== "found" && answer.result_state !== "uncertain") return summary;
  const quotes = evidence
    .filter((ref) => ref.kind !== "thumbnail" && ref.text.trim() !== "")
    .filter((ref) => !summary.includes(ref.text.trim()))
    .slice(0, QUOTED)
    .map((ref) => {
      const when = formatRange(ref.start_time, ref.end_time);
      return `"${ref.text.trim()}"${when === null ? "" : ` (${when})`}`;
    });
  return [summary, ...quotes].filter((part) => part !== "").join(" ");
}

/** An answer's summary followed by its representative evidence. */
function summaryOf(answer: StoredAnswer, lead: string | null): Paragraph {
  const evidence = orderEvidence(answer.answer_payload.evidence_summary.representative);
  return {
    answer_id: answer.id,
    answer_key: answer.key,
    lead,
    text: withQuotes(answer, evidence),
    citations: evidence.map((ref) => ({
      answer_id: answer.id,
      evidence: ref,
      label: citationLabel(ref),
    })),
  };
}

function field(key: string, block: TemplateBlock, ctx: DisplayContext, text: string): Field {
  return { key, label: labelFor(key, block, ctx.strings), text };
}

/**
 * Fields, summary and table of one answer, laid out for the block's type. `partial` applies
 * to the answer's own value and state; its items are shown as the engine decided each.
 */
function answerSection(
  block: TemplateBlock,
  answer: StoredAnswer,
  itemsCtx: DisplayContext,
  partial: PartialCoverage | undefined,
): Section {
  const ctx: DisplayContext = { ...itemsCtx, partial };
  const payload = answer.answer_payload;
  const state = answer.result_state;
  const base = emptySection(block, "listing", headingOf(block, ctx.strings));
  // A verdict answer, or any answer in a verdict block, is a pass only when found and `true`
  // over every source read whole.
  const verdictLike = answer.type === "verdict" || block.type === "verdict";
  const stateWords = stateText(state, ctx, payload.value, verdictLike);
  const section: Section = {
    ...base,
    answer: { id: answer.id, key: answer.key, type: answer.type, result_state: state },
    result_state_text: stateWords,
    value: publicValue(payload.value, state, verdictLike && partial !== undefined),
    unit: payload.unit ?? null,
    paragraphs: [summaryOf(answer, null)],
  };
  const shownValue = valueText(
    payload.value,
    payload.unit,
    state,
    verdictLike,
    ctx,
    isLowerBound(answer),
  );
  const resultField = field("result_state", block, ctx, stateWords);
  if (block.type === "narrative") return { ...section, kind: "narrative" };
  if (block.type === "verdict") {
    const fields = [field("verdict", block, ctx, verdictText(state, payload.value, ctx))];
    // A yes/no value is the verdict itself; only other values get a line of their own.
    if (typeof payload.value !== "boolean" && shownValue !== null) {
      fields.push(field("value", block, ctx, shownValue));
    }
    return { ...section, kind: "verdict", fields };
  }
  if (block.type === "measurement") {
    const fields = [field("value", block, ctx, shownValue ?? "—"), resultField];
    return { ...section, kind: "measurement", fields };
  }
  const layout = lookup(TABLE_LAYOUTS, block.type);
  const table = buildTable(itemRows(answer), block, layout ?? "items", itemsCtx);
  const notice = table.groups.length === 0 ? ctx.strings.noItems : null;
  if (layout !== undefined) {
    return { ...section, kind: "table", fields: [resultField], table, notice };
  }
  // An unknown block type still shows everything the answer holds, in a fixed order.
  const fields = [resultField];
  if (shownValue !== null) fields.push(field("value", block, ctx, shownValue));
  return { ...section, kind: "listing", fields, table, notice };
}

/** A block naming no answer: every answer's summary (narrative) or a table of all answers. */
function allAnswersSection(block: TemplateBlock, bctx: BlockContext, ctx: DisplayContext): Section {
  const heading = headingOf(block, bctx.strings);
  if (bctx.answers.length === 0) {
    const kind = block.type === "narrative" ? "narrative" : "overview";
    return { ...emptySection(block, kind, heading), notice: bctx.strings.noAnswers };
  }
  if (block.type === "narrative") {
    const paragraphs = bctx.answers.map((answer) => summaryOf(answer, answer.key));
    return { ...emptySection(block, "narrative", heading), paragraphs };
  }
  const table = buildTable(answerRows(bctx.answers, bctx.partialOf), block, "overview", ctx);
  return { ...emptySection(block, "overview", heading), table };
}

/**
 * The first answer under each key, in report order: what a block naming that key renders.
 * Built once per report; a default template has one block per answer, so a scan per block
 * grew with answers squared (5.3 s of CPU for 25,000).
 */
export function answersByKey(answers: readonly StoredAnswer[]): Map<string, StoredAnswer> {
  const byKey = new Map<string, StoredAnswer>();
  for (const answer of answers) if (!byKey.has(answer.key)) byKey.set(answer.key, answer);
  return byKey;
}

/** Renders one template block into its section. */
export function renderBlock(block: TemplateBlock, bctx: BlockContext): Section {
  const ctx = displayContext(block, bctx.strings);
  if (block.type === "heading") {
    const kind = bctx.isTitle ? "title" : "heading";
    const label = block.label?.trim() ? block.label : bctx.strings.defaultTitle;
    return emptySection(block, kind, label);
  }
  const key = block.answer_key;
  if (key === undefined || key === "") return allAnswersSection(block, bctx, ctx);
  const answer = bctx.byKey.get(key);
  if (answer === undefined) {
    const section = emptySection(block, "missing", headingOf(block, bctx.strings));
    return { ...section, notice: bctx.strings.missingAnswer(key) };
  }
  return answerSection(block, answer, ctx, bctx.partialOf(answer));
}
