import { draftAnswer } from "../../src/answer-engine/answer-types";
import { namedCandidates } from "../../src/answer-engine/answer-types/enumeration";
import { metricOf } from "../../src/answer-engine/answer-types/metrics";
import { type AnswerContext, buildContext } from "../../src/answer-engine/context";
import { isSupporting, matchInspection, type StrongUnit } from "../../src/answer-engine/matching";
import type { AnswerDraft } from "../../src/answer-engine/payload";
import type { AnswerItem, ResultState } from "../../src/domain/answers";
import type { EvidenceRef } from "../../src/domain/evidence";
import type { ModelAnswer } from "../../src/ports/answer-engine/workers-ai-output";
import { type PromptQuestion, type PromptReading, requestOf } from "./answer-prompt";
import { sentencesOf } from "./statements";

/** A question answered honestly: what the engine read, and the model's JSON of it. */
export interface HonestReading {
  question: PromptQuestion;
  ctx: AnswerContext;
  draft: AnswerDraft;
  answer: ModelAnswer;
}

/**
 * The honest answer model: the local engine's reasoning over the segments of the prompt (each
 * sentence read in its language where the engine has a reading), said in the model's JSON. It reads every segment it was sent whole and knows nothing of
 * extraction, so gaps are the service's to judge; it calls a thing absent only when the
 * segments sent span the videos (else `not_checked`).
 */
export function answerHonestly(question: PromptQuestion, reading: PromptReading): HonestReading {
  const built = buildContext(requestOf(question, reading));
  const ctx: AnswerContext = {
    ...built,
    inspection: {
      ...built.inspection,
      videos: built.inspection.videos.map((v) => ({ ...v, extracted: true, gap: undefined })),
    },
  };
  const draft = draftAnswer(ctx);
  return { question, ctx, draft, answer: modelAnswer(ctx, draft, reading) };
}

/** The ids the prompt gave the refs, without repeats. */
export function promptIdsOf(refs: EvidenceRef[], reading: PromptReading): string[] {
  return [...new Set(refs.flatMap((r) => reading.promptIds.get(r.evidence_id) ?? []))];
}

function modelAnswer(ctx: AnswerContext, draft: AnswerDraft, reading: PromptReading): ModelAnswer {
  const { decision } = draft;
  const ids = (refs: EvidenceRef[]) => promptIdsOf(refs, reading);
  // Words not found are no absence to a model that reads only words: a model reading meaning
  // might find it said otherwise, and this stand-in cannot, so it does not claim one.
  if (decision.reason === "no_literal_match")
    return {
      result_state: "uncertain",
      reason_code: "insufficient_evidence",
      summary: "None of the question's words is in the segments given; it may be said otherwise.",
      value: null,
      evidence_ids: [],
      quotes: [],
      items: items(draft.items, null, reading),
    };
  const absent = decision.state === "not_found" || decision.state === "not_checked";
  if (absent) {
    const state = reading.covered ? "not_found" : "not_checked";
    const value = state === "not_found" ? absentValue(ctx) : null;
    return {
      result_state: state,
      reason_code: state === "not_found" ? "no_supporting_evidence" : "insufficient_evidence",
      summary:
        state === "not_found"
          ? "Nothing in the segments given supports it."
          : "The segments given do not span the videos, so whether it is absent cannot be told.",
      value,
      ...(value === null || draft.unit === undefined ? {} : { unit: draft.unit }),
      evidence_ids: [],
      quotes: [],
      items: items(draft.items, state, reading),
    };
  }
  const found = decision.state === "found";
  const opposed =
    decision.reason === "conflicting_evidence" || decision.reason === "unclear_polarity";
  return {
    result_state: decision.state,
    ...(found ? {} : { reason_code: opposed ? "conflicting_evidence" : "insufficient_evidence" }),
    summary: draft.summary.slice(0, 4000),
    value: found ? (draft.value ?? null) : null,
    ...(found && draft.unit !== undefined ? { unit: draft.unit } : {}),
    evidence_ids: ids(draft.contributing),
    quotes: found ? supportingSentences(ctx, draft) : [],
    items: items(draft.items, null, reading),
  };
}

/** What a model says of an absence: a verdict's no, a count's zero, else nothing. */
function absentValue(ctx: AnswerContext): boolean | number | null {
  const type = ctx.request.spec.answer_type;
  if (type === "verdict") return false;
  if (type === "enumeration" || type === "timeline" || type === "retrieval") return 0;
  if (type === "measurement" && metricOf(ctx.request.spec) === "count") return 0;
  return null;
}

/** Items in the model's shape; with an absence, an item citing nothing is that absence. */
function items(
  list: AnswerItem[],
  absence: ResultState | null,
  reading: PromptReading,
): ModelAnswer["items"] {
  return list.slice(0, 100).map((item) => {
    const evidence = promptIdsOf(item.evidence, reading);
    const state =
      absence !== null && item.result_state !== "found" && evidence.length === 0
        ? absence
        : item.result_state;
    return {
      label: (item.label.trim() || item.item_id).slice(0, 500),
      result_state: state,
      ...(item.value === undefined ? {} : { value: item.value }),
      evidence_ids: evidence,
    };
  });
}

/**
 * The sentences that support a found, as the prompt asks for quotes: each supporting sentence
 * (a strong unit of the matching) in the evidence the answer cites; a sentence running across
 * cues is quoted piece by piece, each piece standing in its own span.
 */
function supportingSentences(ctx: AnswerContext, draft: AnswerDraft): string[] {
  const cited = new Set(draft.contributing.map((r) => r.evidence_id));
  let quotes: string[];
  if (ctx.request.spec.answer_type === "synthesis") {
    quotes = draft.items.filter((i) => i.result_state === "found").map((i) => i.label);
  } else {
    const candidates = namedCandidates(ctx).flatMap((c) =>
      matchInspection(ctx.inspection, c.probes, ctx.requirement),
    );
    quotes = [...ctx.matches, ...candidates]
      .filter(isSupporting)
      .flatMap((m) => m.strongUnits)
      .filter((u) => u.evidence.some((r) => cited.has(r.evidence_id)))
      .flatMap(pieces);
  }
  if (quotes.length === 0)
    quotes = draft.contributing.flatMap((r) => sentencesOf(r.text).slice(0, 1));
  return [...new Set(quotes)].slice(0, 20).map((q) => q.slice(0, 1000));
}

function pieces(unit: StrongUnit): string[] {
  if (unit.evidence.length <= 1) return [unit.text];
  return unit.evidence.flatMap((r) => sentencesOf(r.text).filter((s) => unit.text.includes(s)));
}
