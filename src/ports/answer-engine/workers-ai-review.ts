import { type AnswerContext, clock, excerpt } from "../../answer-engine/context";
import { distinctRefs, evidenceRef } from "../../answer-engine/evidence-ids";
import { fitsMode, type LanguageReading } from "../../answer-engine/language-reading";
import {
  BORDERLINE_SCORE,
  readSentence,
  type SentenceReading,
  STRONG_SCORE,
} from "../../answer-engine/matching";
import { probeStems } from "../../answer-engine/question-probes";
import { REASON_PRIORITY } from "../../answer-engine/states";
import { type TextUnit, textUnits } from "../../answer-engine/units";
import type { ReasonCode, ResultState } from "../../domain/answers";
import type { EvidenceRef } from "../../domain/evidence";
import { containsSequence, stems } from "../../lib/text/search-scoring";
import { tokenize } from "../../lib/text/text-features";
import type { ModelAnswer, SendFacts } from "./workers-ai-output";
import type { SentSegment } from "./workers-ai-prompt";

/** Why a model's found is not kept, with what it cited, for the answer to show. */
export interface Refusal {
  reason: ReasonCode;
  refs: EvidenceRef[];
  /** The sentence (or quote) the reason is about. */
  text?: string;
}

/** A model's answer as the service read it (docs/answer-engine.md §8). */
export interface Review {
  /** The state the model answered. */
  state: ResultState;
  /** The model answered found, for the whole answer or an item. */
  claimedFound: boolean;
  /** The model reads the evidence as conflicting (its own uncertain, `conflicting_evidence`). */
  doubts: boolean;
  /** Spans of the cited sentences the service's own reading supports. */
  supported: EvidenceRef[];
  /** Why none of what the model cited is kept as support (when it claimed found). */
  refusal?: Refusal;
  value: ModelAnswer["value"];
  unit: ModelAnswer["unit"];
  /** Cited ids that were not among the segments sent. */
  dropped: number;
}

type Outcome = { ok: true } | { ok: false; reason: ReasonCode };

/** The sentences of the segment that hold a span of `ref`, with the refs of their spans. */
function unitsOf(ctx: AnswerContext, sent: SentSegment, ref: EvidenceRef): TextUnit[] {
  const spans = sent.segment.evidence.filter((s) => ctx.requirement.kinds.has(s.kind));
  return textUnits(spans).filter((unit) =>
    unit.spans.some(
      (span) => evidenceRef(sent.video, sent.segment, span).evidence_id === ref.evidence_id,
    ),
  );
}

/**
 * How one cited sentence reads against the question, as the local engine reads it: it must
 * share at least half of a probe's words, have the probe's polarity and the question's kind of
 * statement, and hold every word of the probe; sharing only some is the model's reading of
 * meaning (a paraphrase), which words cannot confirm.
 */
function judge(
  ctx: AnswerContext,
  text: string,
  extra: ReadonlySet<string>,
  reading: LanguageReading,
): Outcome {
  if (ctx.probes.length === 0) {
    const type = ctx.request.spec.answer_type;
    const open = type === "synthesis" || type === "retrieval" || type === "timeline";
    return open ? { ok: true } : { ok: false, reason: "no_probe_terms" };
  }
  let best: { reading: SentenceReading; index: number } | undefined;
  ctx.probes.forEach((probe, index) => {
    const read = readSentence(text, probe, new Set([...probeStems(probe), ...extra]), reading);
    if (best === undefined || read.score > best.reading.score) best = { reading: read, index };
  });
  if (best === undefined) return { ok: false, reason: "no_probe_terms" };
  const read = best.reading;
  const probe = ctx.probes[best.index];
  if (read.score < BORDERLINE_SCORE) return { ok: false, reason: "unrelated_citation" };
  if (read.polarity !== read.wanted)
    return {
      ok: false,
      reason: read.polarity === "unclear" ? "unclear_polarity" : "conflicting_evidence",
    };
  if (probe !== undefined && !fitsMode(probe.mode, read.form)) {
    if (read.form === "unknown") return { ok: false, reason: "unclear_statement" };
    return {
      ok: false,
      reason: probe.mode === "rule" ? "observation_not_instruction" : "instruction_not_observation",
    };
  }
  if (read.score < STRONG_SCORE) return { ok: false, reason: "paraphrase_unverified" };
  return { ok: true };
}

/** The most telling of several reasons (the answer's reason order). */
function firstReason(reasons: ReasonCode[]): ReasonCode | undefined {
  return REASON_PRIORITY.find((r) => reasons.includes(r)) ?? reasons[0];
}

interface Checked {
  unit: TextUnit;
  refs: EvidenceRef[];
  outcome: Outcome;
}

/**
 * Reads every found the model gives (the answer's quotes in what it cites; found items' cited
 * sentences) with the engine's own reading. Nothing the model says is stored as it says it:
 * the caller decides from the service's reading, and uses this review for the model's doubts,
 * its values and why its found was not kept.
 */
export function reviewModelAnswer(
  ctx: AnswerContext,
  model: ModelAnswer,
  facts: SendFacts,
): Review {
  const segments = new Map(facts.sent.map((s) => [s.segment.id, s]));
  const known = new Map(facts.sent.flatMap((s) => s.refs.map((r) => [r.evidence_id, r] as const)));
  let dropped = 0;
  const keep = (ids: string[]): EvidenceRef[] =>
    distinctRefs(
      ids.flatMap((id) => {
        const ref = known.get(id);
        if (ref === undefined) dropped++;
        return ref === undefined ? [] : [ref];
      }),
    );
  const answerRefs = keep(model.evidence_ids);
  const foundItems = model.items.filter((i) => i.result_state === "found");
  const itemRefs = foundItems.map((item) => keep(item.evidence_ids));
  const claimedFound = model.result_state === "found" || foundItems.length > 0;

  const checked: Checked[] = [];
  const check = (unit: TextUnit, sent: SentSegment, extra: ReadonlySet<string>) => {
    const refs = distinctRefs(
      unit.spans.map((span) => evidenceRef(sent.video, sent.segment, span)),
    );
    const first = unit.spans[0];
    const reading = first ? ctx.readingOf(sent.video, first) : ctx.reading;
    checked.push({ unit, refs, outcome: judge(ctx, unit.text, extra, reading) });
  };
  const cited = distinctRefs([...answerRefs, ...itemRefs.flat()]);
  // The answer's support is its quotes, each sentence of a quote found in a cited sentence.
  for (const quote of model.quotes) {
    for (const piece of quote.split(/(?<=[.!?;])\s+/u)) {
      const words = tokenize(piece);
      if (words.length === 0) continue;
      const places = cited.flatMap((ref) => {
        const sent = segments.get(ref.segment_id);
        return sent === undefined
          ? []
          : unitsOf(ctx, sent, ref)
              .filter((unit) => containsSequence(tokenize(unit.text), words))
              .map((unit) => ({ unit, sent }));
      });
      const extra = new Set(stems(piece));
      for (const { unit, sent } of places) check(unit, sent, extra);
    }
  }
  // A found item's support is the sentences of what it cites.
  for (const refs of itemRefs) {
    for (const ref of refs) {
      const sent = segments.get(ref.segment_id);
      if (sent !== undefined)
        for (const unit of unitsOf(ctx, sent, ref)) check(unit, sent, new Set());
    }
  }

  const supported = distinctRefs(checked.filter((c) => c.outcome.ok).flatMap((c) => c.refs));
  const review: Review = {
    state: model.result_state,
    claimedFound,
    doubts: model.result_state === "uncertain" && model.reason_code === "conflicting_evidence",
    supported,
    value: model.value,
    unit: model.unit,
    dropped,
  };
  if (!claimedFound) return review;
  if (ctx.request.spec.answer_type === "verdict" && model.value === false) {
    // "found" with the value false says yes and no at once.
    return { ...review, supported: [], refusal: { reason: "unbacked_value", refs: cited } };
  }
  if (supported.length > 0) return review;
  const refusal = refusalOf(checked, cited, dropped);
  return { ...review, refusal };
}

function refusalOf(checked: Checked[], cited: EvidenceRef[], dropped: number): Refusal {
  if (cited.length === 0)
    return { reason: dropped > 0 ? "evidence_not_in_index" : "no_cited_evidence", refs: [] };
  const reason = firstReason(checked.flatMap((c) => (c.outcome.ok ? [] : [c.outcome.reason])));
  // Nothing it quoted stands in what it cites (an invented or moved quote).
  if (reason === undefined) return { reason: "unsupported_citation", refs: cited };
  const about = checked.find((c) => !c.outcome.ok && c.outcome.reason === reason);
  return { reason, refs: about?.refs ?? cited, ...(about ? { text: about.unit.text } : {}) };
}

const REFUSED: Partial<Record<ReasonCode, string>> = {
  conflicting_evidence: "which negates what was asked",
  unclear_polarity: "whose negations do not show the sense asked",
  instruction_not_observation: "which states a rule, request or instruction, not that it happened",
  observation_not_instruction: "which says what happened, not that it is a rule or instruction",
  unclear_statement: "whose form shows neither a report nor a rule",
  unrelated_citation: "which does not share at least half of the question's words",
  paraphrase_unverified:
    "which the model reads as saying it in other words; a word reading cannot confirm that",
};

/** One sentence saying what the model claimed and why it is not kept. */
export function refusalSentence(refusal: Refusal): string {
  const first = refusal.refs[0];
  const at = first === undefined ? "" : ` (${clock(first.start_time)})`;
  const said = refusal.text === undefined ? "" : ` "${excerpt(refusal.text, 120)}"${at},`;
  switch (refusal.reason) {
    case "unbacked_value":
      return "The model answered found with the value false; it is not reported as found.";
    case "unsupported_citation":
      return "The model answered found, but no quote of its support stands in the evidence it cites; it is not kept.";
    case "evidence_not_in_index":
      return "The model answered found citing evidence ids that were not sent to it; it is not kept.";
    case "no_cited_evidence":
      return "The model answered found citing no evidence; it is not kept.";
    case "no_probe_terms":
      return "The model answered found, but the question names nothing its citation could be checked against.";
    default:
      return `The model answered found citing${said} ${REFUSED[refusal.reason] ?? "which does not support it"}; it is not kept.`;
  }
}
