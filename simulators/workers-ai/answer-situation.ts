import { metricOf } from "../../src/answer-engine/answer-types/metrics";
import type { QuestionMode } from "../../src/answer-engine/language-reading";
import { probeStems } from "../../src/answer-engine/question-probes";
import type { AnswerType } from "../../src/domain/answers";
import { sameLanguage } from "../../src/lib/text/language";
import type { ModelAnswer } from "../../src/ports/answer-engine/workers-ai-output";
import type { PromptReading, PromptSpan } from "./answer-prompt";
import type { HonestReading } from "./honest-answer";
import { askedStems, isNegated, isProhibition, sentencesOf, sharedStems } from "./statements";

/** One sentence of a span the question may read. */
export interface SpanSentence {
  span: PromptSpan;
  text: string;
  /** How many of the question's word stems it holds. */
  shared: number;
}

/** What an error is made from: the question, the honest answer and the evidence sent. */
export interface Situation {
  honest: HonestReading;
  reading: PromptReading;
  type: AnswerType;
  mode: QuestionMode;
  /** Stems of the question's words (its probes). */
  stems: ReadonlySet<string>;
  /** The question holds a negation ("Was nobody without…", "Did he reverse without…"). */
  negatedQuestion: boolean;
  /** What the question forbids, when it opens with its negation ("No smoking near the door"). */
  prohibition: string | null;
  /**
   * No sentence sent shares a word with the question, and some is in another language than
   * the run's: words cannot tell what relates to it then.
   */
  crossLanguage: boolean;
  /** Spans of kinds the question accepts, in prompt order. */
  spans: PromptSpan[];
  sentences: SpanSentence[];
  /** A number in [0, n) fixed by the question, the evidence sent, the seed and `salt`. */
  choose(salt: string, n: number): number;
}

/** The situation of an honest answer; `choose` is the adversary's seeded choice. */
export function situationOf(
  honest: HonestReading,
  reading: PromptReading,
  choose: Situation["choose"],
): Situation {
  const { ctx, question } = honest;
  const stems = askedStems(ctx.probes.flatMap((p) => [...probeStems(p)]));
  const spans = reading.spans.filter((s) => ctx.requirement.kinds.has(s.kind));
  const texts = [question.description, ...question.fields.map((f) => f.label)];
  const sentences = spans.flatMap((span) =>
    sentencesOf(span.text).map((text) => ({ span, text, shared: sharedStems(text, stems) })),
  );
  const locale = reading.prompt.locale;
  return {
    honest,
    reading,
    type: question.answer_type,
    mode: question.mode ?? ctx.probes[0]?.mode ?? "observation",
    stems,
    negatedQuestion: ctx.probes.some((p) => p.negated) || texts.some(isNegated),
    prohibition: texts.find(isProhibition) ?? null,
    crossLanguage:
      sentences.every((x) => x.shared === 0) &&
      spans.some((x) => x.language !== null && !sameLanguage(x.language, locale)),
    spans,
    sentences,
    choose,
  };
}

/** The metric of a measurement question (count, duration, first or last time). */
export function metricOfSituation(s: Situation) {
  return metricOf(s.honest.ctx.request.spec);
}

/**
 * Sentences passing `test` that hold the most of the question's words; across languages,
 * where words cannot tell, any passing sentence.
 */
export function related(s: Situation, test: (sentence: SpanSentence) => boolean): SpanSentence[] {
  const passing = s.sentences.filter(test);
  const pool = s.crossLanguage ? passing : passing.filter((x) => x.shared > 0);
  const best = Math.max(0, ...pool.map((x) => x.shared));
  return pool.filter((x) => x.shared === best);
}

/** One of the list, chosen by the situation's seeded choice. */
export function pick<T>(s: Situation, salt: string, list: T[]): T | undefined {
  return list.length === 0 ? undefined : list[s.choose(salt, list.length)];
}

/** The label of a video, as the honest answer's items name it. */
function videoLabel(s: Situation, videoId: string): string {
  const video = s.reading.videos.find((v) => v.id === videoId);
  return (video?.title.trim() || videoId).slice(0, 500);
}

/**
 * A `found` citing these sentences: a verdict says yes, one item per video cited; any other
 * type keeps the honest value and items, with each found item citing the new spans instead.
 */
export function foundCiting(
  s: Situation,
  cited: { span: PromptSpan; quote: string }[],
  summary: string,
): ModelAnswer {
  const ids = [...new Set(cited.map((c) => c.span.id))];
  const honest = s.honest.answer;
  const items =
    s.type === "verdict"
      ? [...new Set(cited.map((c) => c.span.videoId))].map((videoId) => ({
          label: videoLabel(s, videoId),
          result_state: "found" as const,
          value: true,
          evidence_ids: cited.filter((c) => c.span.videoId === videoId).map((c) => c.span.id),
        }))
      : honest.items.map((item) =>
          item.result_state === "found" ? { ...item, evidence_ids: ids } : item,
        );
  return {
    result_state: "found",
    summary,
    value: s.type === "verdict" ? true : (honest.value ?? null),
    ...(s.type !== "verdict" && honest.unit ? { unit: honest.unit } : {}),
    evidence_ids: ids,
    quotes: [...new Set(cited.map((c) => c.quote))],
    items,
  };
}
