import type { AnswerType } from "../domain/answers";
import { tokenize } from "../lib/text/text-features";

/**
 * What a question asks for:
 * - `observation`: that something happened or is the case ("Do the workers wear hard hats?");
 *   a sentence stating a rule or intent ("Workers must wear hard hats") is no evidence of it;
 * - `rule`: that a rule or instruction exists ("Are operators required to wear vests?"); a
 *   sentence saying it happened is no evidence of the rule;
 * - `mention`: what is said ("Is the vest rule mentioned?"); any sentence saying it counts.
 */
export type QuestionMode = "observation" | "rule" | "mention";

/**
 * What a sentence does, as far as its form shows: it states a rule, request or intent
 * (`directive`), reports what happened or is the case (`report`), or its form does not tell
 * (`unknown`). Only a report is evidence that something happened.
 */
export type SentenceMode = "directive" | "report" | "unknown";

/**
 * The closed classes of one language the engine reads questions and evidence with: negation
 * cues, the words a question frames itself with, and the forms that tell a report from a rule.
 * A language without a reading is not read: its questions and evidence decide nothing.
 */
export interface LanguageReading {
  /** ISO 639-1. */
  code: string;
  isNegationCue(token: string): boolean;
  /** Function words: never something to find. */
  isFunctionWord(token: string): boolean;
  /** Words that say what to do with the evidence (count, when, summarise), not what to find. */
  isFramingWord(token: string): boolean;
  /** Words of a question that ask for a rule ("required", "müssen"). */
  isRuleCue(token: string): boolean;
  /** Words of a question that ask what is said ("mention", "erwähnt"). */
  isMentionCue(token: string): boolean;
  /** Multi-word ways a question asks for a rule ("need to"). */
  asksForRule(tokens: string[]): boolean;
  /** Words naming what a measurement measures ("temperature"), which its number answers. */
  isMeasureWord(token: string): boolean;
  /**
   * Words naming where text is written ("sign", "slide", "screen"): where to look, not what to
   * find, when a question accepts on-screen text only ("What does the sign say?").
   */
  isScreenWord(token: string): boolean;
  /** A sentence's mode towards the words with these stems. */
  sentenceMode(sentence: string, stems?: ReadonlySet<string>): SentenceMode;
  /** Quantities (numbers, units, "how many") are read in this language. */
  readsQuantities: boolean;
  /** Every noun is capitalised, so a capital letter does not mark a name. */
  capitalisesNouns: boolean;
}

/**
 * The mode of a spec's question, from all of its probe sources: asking what is said wins, then
 * asking for a rule, else an observation. Retrieval and synthesis return passages, not claims
 * about what happened, so they always read as `mention`.
 */
export function questionMode(
  sources: string[],
  answerType: AnswerType,
  reading: LanguageReading,
): QuestionMode {
  if (answerType === "retrieval" || answerType === "synthesis") return "mention";
  const tokens = sources.flatMap((s) => tokenize(s));
  if (tokens.some((t) => reading.isMentionCue(t))) return "mention";
  if (tokens.some((t) => reading.isRuleCue(t)) || reading.asksForRule(tokens)) return "rule";
  return "observation";
}

/** Whether a sentence of this mode can support an answer to a question of this mode. */
export function fitsMode(mode: QuestionMode, sentence: SentenceMode): boolean {
  if (mode === "mention") return true;
  return sentence === (mode === "rule" ? "directive" : "report");
}
