import { draftAnswer } from "../../answer-engine/answer-types";
import { type AnswerContext, plural } from "../../answer-engine/context";
import { READABLE_LANGUAGES } from "../../answer-engine/languages";
import { matchText } from "../../answer-engine/matching";
import type { AnswerDraft } from "../../answer-engine/payload";
import { secondsPerUnit } from "../../answer-engine/quantities";
import { probeStems } from "../../answer-engine/question-probes";
import type { AnswerItem, AnswerType, ReasonCode } from "../../domain/answers";
import { sameLanguage } from "../../lib/text/language";
import { stems } from "../../lib/text/search-scoring";

import type { SendFacts } from "./workers-ai-output";
import { type Review, refusalSentence } from "./workers-ai-review";

/** The languages whose questions and evidence the service reads (negations, instructions). */
export const READ_LANGUAGES: readonly string[] = READABLE_LANGUAGES;

/** Whether the service reads questions asked in this locale. */
export function readsLocale(locale: string): boolean {
  return READ_LANGUAGES.some((l) => sameLanguage(l, locale));
}

/** The answer types whose absence a model's reading may back: a decision, not a listing. */
const JUDGED_TYPES: ReadonlySet<AnswerType> = new Set(["verdict", "measurement", "comparison"]);

/** The answer's draft and what its found or absence rests on. */
export interface Decided {
  draft: AnswerDraft;
  /**
   * `lexical`: the service's own reading of the evidence decided; `model-judged`: an absence
   * the words cannot show, taken from the model's reading of everything it was sent.
   */
  method: "lexical" | "model-judged";
}

/** Whether some sentence read holds a word of some probe: then words cannot show an absence. */
function probeWordRead(ctx: AnswerContext): boolean {
  const wanted = new Set(ctx.probes.flatMap((p) => [...probeStems(p)]));
  return ctx.inspection.videos.some((v) =>
    v.read.some((segment) => stems(matchText(segment, ctx.requirement)).some((s) => wanted.has(s))),
  );
}

function note(draft: AnswerDraft, sentence: string): AnswerDraft {
  return { ...draft, summary: `${draft.summary} ${sentence}`.trim() };
}

/** A draft made uncertain: found items lose their state and value too. */
function doubted(
  draft: AnswerDraft,
  reason: ReasonCode,
  summary: string,
  videos?: ReadonlySet<string>,
): AnswerDraft {
  const items = draft.items.map((item): AnswerItem => {
    const touched = videos === undefined ? item.result_state === "found" : videos.has(item.item_id);
    if (!touched || item.result_state === "uncertain") return item;
    const { value: _value, ...rest } = item;
    return { ...rest, result_state: "uncertain" };
  });
  const { value: _value, ...rest } = draft;
  return { ...rest, decision: { state: "uncertain", reason }, summary, items };
}

/** The service's own reasons for doubting a sentence that holds the question's words. */
const SENTENCE_REASONS: ReadonlySet<ReasonCode> = new Set([
  "conflicting_evidence",
  "unclear_polarity",
  "instruction_not_observation",
  "observation_not_instruction",
  "unclear_statement",
  "quantity_not_stated",
]);

/** Refusals about a sentence that bears on the question: worth an answer's doubt. */
const RELATED_REFUSALS: ReadonlySet<ReasonCode> = new Set([
  "paraphrase_unverified",
  "conflicting_evidence",
  "unclear_polarity",
  "instruction_not_observation",
  "observation_not_instruction",
  "unclear_statement",
  "unbacked_value",
]);

/** A draft whose absence could not be shown: not_checked, with no value. */
function unchecked(draft: AnswerDraft, reason: ReasonCode, summary: string): AnswerDraft {
  const { value: _value, ...rest } = draft;
  return { ...rest, decision: { state: "not_checked", reason }, summary, contributing: [] };
}

/**
 * The answer when the model failed with an error no page documents, over every bounded attempt:
 * nothing was checked, whatever the words alone would say, and the summary quotes the error.
 */
export function undocumentedFailure(ctx: AnswerContext, text: string, attempts: number): Decided {
  const { value: _value, unit: _unit, ...own } = draftAnswer(ctx);
  const items = own.items.map(
    ({ value: _v, ...item }): AnswerItem => ({
      ...item,
      result_state: "not_checked",
      evidence: [],
    }),
  );
  const summary = `The answer model failed ${plural(attempts, "time")} with an error Cloudflare does not document ("${text}"), so nothing was checked; running the analysis again asks it again.`;
  return {
    draft: {
      ...own,
      items,
      contributing: [],
      decision: { state: "not_checked", reason: "model_error" },
      summary,
    },
    method: "lexical",
  };
}

/** A number in seconds when its unit is one of time, else as given. */
function comparable(value: number, unit: string | null | undefined): number {
  const factor = unit ? secondsPerUnit(unit) : undefined;
  return factor === undefined ? value : value * factor;
}

/** The model states a number the service's reading does not (in seconds where both are times). */
function disagrees(draft: AnswerDraft, review: Review): boolean {
  if (review.state !== "found" || typeof review.value !== "number") return false;
  if (typeof draft.value !== "number") return false;
  const mine = comparable(draft.value, draft.unit);
  const theirs = comparable(review.value, review.unit);
  const timed = draft.unit !== undefined && secondsPerUnit(draft.unit) !== undefined;
  return (
    Math.abs(mine - theirs) > (timed ? 1 : 1e-9) && Math.abs(draft.value - review.value) > 1e-9
  );
}

/**
 * The production answer: the service's own reading of everything read decides, as the local
 * engine's does; the model, a witness, can (1) back an absence the words cannot show, when it
 * was sent every candidate and no sentence read holds any of the question's words; (2) doubt a
 * found it reads as conflicting, or whose number it reads differently; (3) explain why its own
 * found was not kept. Nothing the model says is stored as support (docs/answer-engine.md §8).
 */
export function decideFromReview(
  ctx: AnswerContext,
  review: Review | null,
  facts: SendFacts,
  failure?: string,
): Decided {
  const own = draftAnswer(ctx);
  if (review === null) {
    return { draft: note(own, failure ?? ""), method: "lexical" };
  }
  // An absence only the model's reading of meaning can show: no word of the question was read.
  // A timeline, summary or list over evidence that exists is never empty on its word.
  const judgedAbsent =
    JUDGED_TYPES.has(ctx.request.spec.answer_type) &&
    review.state === "not_found" &&
    !review.claimedFound &&
    own.decision.state !== "not_found" &&
    ctx.probes.length > 0 &&
    !probeWordRead(ctx);
  if (judgedAbsent && facts.unsent !== "none" && own.decision.state !== "not_checked") {
    const reason = facts.unsent === "budget" ? "budget_exhausted" : "context_limit";
    const sentence = `The model found no support, but it was sent ${plural(facts.sent.length, "segment")}, not every candidate, so no absence is claimed.`;
    return { draft: unchecked(own, reason, sentence), method: "lexical" };
  }
  if (judgedAbsent) {
    const backed = draftAnswer({ ...ctx, absence: "backed" });
    if (backed.decision.state !== "not_found") return { draft: backed, method: "lexical" };
    return {
      draft: note(
        backed,
        "No sentence read holds any of the question's words, and the model, sent every candidate segment, found no support in other words.",
      ),
      method: "model-judged",
    };
  }
  if (own.decision.state === "found") {
    if (review.doubts)
      return {
        draft: doubted(
          own,
          "conflicting_evidence",
          `${own.summary} The model reads the evidence as conflicting, so it is not reported as found.`,
        ),
        method: "lexical",
      };
    if (disagrees(own, review))
      return {
        draft: doubted(
          own,
          "unbacked_value",
          `${own.summary} The model reads the value as ${String(review.value)}${review.unit ? ` ${review.unit}` : ""}, so it is not reported as found.`,
        ),
        method: "lexical",
      };
    return { draft: own, method: "lexical" };
  }
  const { refusal } = review;
  if (refusal === undefined) return { draft: own, method: "lexical" };
  const sentence = refusalSentence(refusal);
  const reason = own.decision.reason;
  // The service's own reading of a sentence (a negation, a rule, no stated number) says more
  // than the model's refused claim; a claim about nothing related (an unrelated or unquoted
  // citation) changes nothing the service's reading decided. Either way the summary says what
  // was refused.
  const ownReading =
    own.decision.state === "uncertain" && reason !== undefined && SENTENCE_REASONS.has(reason);
  if (ownReading || !RELATED_REFUSALS.has(refusal.reason))
    return { draft: note(own, sentence), method: "lexical" };
  const videos = new Set(refusal.refs.map((r) => r.video_id));
  const draft = doubted(own, refusal.reason, sentence, videos);
  return {
    draft: { ...draft, contributing: [...refusal.refs, ...own.contributing] },
    method: "lexical",
  };
}
