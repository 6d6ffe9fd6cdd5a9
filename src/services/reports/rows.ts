import type { AnswerAttribute, AnswerItem, ResultState } from "../../domain/answers";
import { RESULT_STATES } from "../../domain/answers";
import type { EvidenceRef } from "../../domain/evidence";
import type { PartialCoverage } from "./coverage";
import { type DisplayContext, stateText, valueText } from "./display";
import {
  citationLabel,
  formatNumber,
  formatRange,
  formatTime,
  orderEvidence,
  parseSeconds,
  type RawValue,
} from "./format";
import type { Cell } from "./model";
import { lookup } from "./strings";
import type { StoredAnswer } from "./types";

/** What a table row is made from: an answer item, or a whole answer in an overview. */
export interface RowSource {
  id: string;
  /** 1-based position in the answer (or in the overview), the engine's own order. */
  rank: number;
  answerId: string;
  state: ResultState;
  /** Yes/no values read as pass/fail (a verdict answer in an overview). */
  verdictLike: boolean;
  /** A whole answer that did not read every source whole: its value is then never a pass. */
  partial?: PartialCoverage | undefined;
  label: string;
  value: RawValue;
  unit: string | undefined;
  start: number | undefined;
  end: number | undefined;
  evidence: EvidenceRef[];
  attributes: AnswerAttribute[];
  /** Further text fields by key (`item_id`; `answer_id`, `answer_key`, `type`, `summary`). */
  text: Record<string, string>;
}

const LOWER_BOUND = { key: "at_least", label: "Lower bound", value: true } as const;

/** Whether a row's numbers are lower bounds: it is marked `at_least` (what was read of a part). */
function lowerBound(row: RowSource): boolean {
  return row.attributes.some((a) => a.key === "at_least" && a.value === true);
}

/**
 * Whether an answer's number is a lower bound: an uncertain measurement with an item marked
 * `at_least` (both engines give an uncertain measurement a value only then).
 */
export function isLowerBound(answer: StoredAnswer): boolean {
  return (
    answer.type === "measurement" &&
    answer.result_state === "uncertain" &&
    answer.answer_payload.items.some((i) =>
      i.attributes.some((a) => a.key === "at_least" && a.value === true),
    )
  );
}

/** A value rows sort and group by; null sorts last in either direction. */
export type SortKey = string | number | boolean | null;

function attributeValue(item: AnswerItem, keys: readonly string[]): RawValue {
  for (const key of keys) {
    const attribute = item.attributes.find((a) => a.key === key);
    if (attribute?.value !== undefined) return attribute.value;
  }
  return undefined;
}

function evidenceBounds(evidence: readonly EvidenceRef[]): { start?: number; end?: number } {
  const starts = evidence.map((e) => e.start_time).filter(Number.isFinite);
  const ends = evidence.map((e) => e.end_time).filter(Number.isFinite);
  return {
    start: starts.length > 0 ? Math.min(...starts) : undefined,
    end: ends.length > 0 ? Math.max(...ends) : undefined,
  };
}

/** Rows of an answer's items; times from `start`/`start_time` attributes, else the evidence. */
export function itemRows(answer: StoredAnswer): RowSource[] {
  return answer.answer_payload.items.map((item, index) => {
    const bounds = evidenceBounds(item.evidence);
    return {
      id: item.item_id,
      rank: index + 1,
      answerId: answer.id,
      state: item.result_state,
      verdictLike: false,
      label: item.label,
      value: item.value,
      unit: undefined,
      start: parseSeconds(attributeValue(item, ["start", "start_time"])) ?? bounds.start,
      end: parseSeconds(attributeValue(item, ["end", "end_time"])) ?? bounds.end,
      evidence: item.evidence,
      attributes: item.attributes,
      text: { item_id: item.item_id },
    };
  });
}

/** One row per answer, for blocks that name no answer. */
export function answerRows(
  answers: readonly StoredAnswer[],
  partialOf: (answer: StoredAnswer) => PartialCoverage | undefined,
): RowSource[] {
  return answers.map((answer, index) => {
    const representative = answer.answer_payload.evidence_summary.representative;
    const bounds = evidenceBounds(representative);
    return {
      id: answer.id,
      rank: index + 1,
      answerId: answer.id,
      state: answer.result_state,
      verdictLike: answer.type === "verdict",
      partial: partialOf(answer),
      label: answer.key,
      value: answer.answer_payload.value,
      unit: answer.answer_payload.unit,
      start: bounds.start,
      end: bounds.end,
      evidence: representative,
      // An uncertain measurement whose items are lower bounds is one itself.
      attributes: isLowerBound(answer) ? [LOWER_BOUND] : [],
      text: {
        answer_id: answer.id,
        answer_key: answer.key,
        type: answer.type,
        summary: answer.answer_payload.summary,
      },
    };
  });
}

function cite(row: RowSource, evidence: readonly EvidenceRef[] | undefined): Cell["citations"] {
  return orderEvidence(evidence ?? []).map((ref) => ({
    answer_id: row.answerId,
    evidence: ref,
    label: citationLabel(ref),
  }));
}

const NO_CITATIONS: Cell["citations"] = [];

/** The cell of `key` for a row: a built-in field, a text field, or an item attribute. */
export function cellOf(row: RowSource, key: string, itemsCtx: DisplayContext): Cell {
  const plain = (text: string | null): Cell => ({ text, citations: NO_CITATIONS });
  const ctx: DisplayContext = { ...itemsCtx, partial: row.partial };
  switch (key) {
    case "label":
      return plain(row.label === "" ? null : row.label);
    case "value":
      return plain(
        valueText(row.value, row.unit, row.state, row.verdictLike, ctx, lowerBound(row)),
      );
    case "result_state":
      return plain(stateText(row.state, ctx, row.value, row.verdictLike));
    case "time":
      return plain(formatRange(row.start, row.end));
    case "start":
      return plain(formatTime(row.start));
    case "end":
      return plain(formatTime(row.end));
    case "rank":
      return plain(formatNumber(row.rank));
    case "evidence":
      return { text: null, citations: cite(row, row.evidence) };
  }
  const text = lookup(row.text, key);
  if (text !== undefined) return plain(text === "" ? null : text);
  const attribute = row.attributes.find((a) => a.key === key);
  if (attribute === undefined) return plain(null);
  return {
    text: valueText(attribute.value, attribute.unit, row.state, false, ctx, lowerBound(row)),
    citations: cite(row, attribute.evidence),
  };
}

/** The raw value rows sort by for `key`: times as seconds, states in their spec order. */
export function sortKeyOf(row: RowSource, key: string): SortKey {
  switch (key) {
    case "label":
      return row.label;
    case "value":
      return row.value ?? null;
    case "result_state":
      return RESULT_STATES.indexOf(row.state);
    case "time":
    case "start":
      return row.start ?? null;
    case "end":
      return row.end ?? null;
    case "rank":
      return row.rank;
    case "evidence":
      return orderEvidence(row.evidence)[0]?.start_time ?? null;
  }
  const text = lookup(row.text, key);
  if (text !== undefined) return text;
  return row.attributes.find((a) => a.key === key)?.value ?? null;
}
