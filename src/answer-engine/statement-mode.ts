import type { AnswerType } from "../domain/answers";
import { tokenize } from "../lib/text/text-features";
import { formOf } from "./sentence-form";

/**
 * What a question asks for:
 * - `observation`: that something happened or is the case ("Do the workers wear hard hats?");
 *   a sentence stating a rule or intent ("Workers must wear hard hats") is no evidence of it;
 * - `rule`: that a rule or instruction exists ("Are operators required to wear vests?"); a
 *   sentence saying it happened is no evidence of the rule;
 * - `mention`: what is said ("Is the vest rule mentioned?"); any sentence saying it counts.
 */
export type QuestionMode = "observation" | "rule" | "mention";

// Question words that ask what is said, not what happened: speech-act verbs, a closed class
// of English. They are framing too (probe.ts): what was said is looked for, not the verb.
const MENTION_CUES = new Set(
  (
    "mention mentions mentioned mentioning say says said saying talk talks talked talking " +
    "discuss discusses discussed discussing state states stated speak speaks spoke spoken " +
    "quote quotes quoted remind reminds reminded reminding announce announces announced " +
    "advise advises advised ask asks asked asking tell tells told telling warn warns warned " +
    "warning urge urges urged explain explains explained suggest suggests suggested " +
    "recommend recommends recommended encourage encourages encouraged insist insists " +
    "insisted inform informs informed notify notifies notified brief briefs briefed " +
    "promise promises promised repeat repeats repeated shout shouts shouted"
  ).split(" "),
);

/** Whether a question word asks what is said (and so is not a word to find in the evidence). */
export function isMentionCue(token: string): boolean {
  return MENTION_CUES.has(token);
}

// Question words that ask for a rule or an obligation. They are also left out of probes
// (probe.ts): "required" need not appear in "Operators must wear vests".
const RULE_CUES = new Set(
  (
    "must should shall ought required require requires requirement requirements mandatory " +
    "compulsory obligatory supposed instructed instruction instructions rule rules policy"
  ).split(" "),
);

/** Whether a question word asks for a rule (and so is not a word to find in the evidence). */
export function isRuleCue(token: string): boolean {
  return RULE_CUES.has(token);
}

// Single words that make a sentence a rule, a request or an intent rather than a report.
const MODAL_CUES = new Set(
  (
    "must mustnt should shouldnt shall ought will would may might could please required " +
    "mandatory compulsory obligatory supposed plan plans intend intends gonna lets"
  ).split(" "),
);

// Words that make one only before "to": "need to wear", "has to be worn", "going to wear".
const BEFORE_TO = new Set("need needs have has had going want wants expected remember".split(" "));

// Phrases (consecutive tokens): "make sure", "be sure", "don't forget".
const PHRASES = [
  ["make", "sure"],
  ["be", "sure"],
  ["dont", "forget"],
  ["do", "not", "forget"],
];

function hasPhrase(tokens: string[], phrase: string[]): boolean {
  return tokens.some((_, i) => phrase.every((word, j) => tokens[i + j] === word));
}

/** Whether the words alone mark a sentence as a rule, request or intent (modals, "need to"). */
function hasDirectiveCue(tokens: string[]): boolean {
  if (tokens.some((t) => MODAL_CUES.has(t))) return true;
  if (tokens.some((t, i) => BEFORE_TO.has(t) && tokens[i + 1] === "to")) return true;
  if (tokens.some((t, i) => (t === "are" || t === "is") && tokens[i + 1] === "to")) return true;
  return PHRASES.some((p) => hasPhrase(tokens, p));
}

/**
 * What a sentence does, as far as its form shows (`sentence-form.ts`): it states a rule,
 * request or intent (`directive`), reports what happened or is the case (`report`), or its
 * form does not tell (`unknown`). Only a report is evidence that something happened; when the
 * form does not tell, nothing is claimed.
 */
export type SentenceMode = "directive" | "report" | "unknown";

/**
 * The mode of a sentence towards the words whose stems are given: a directive when it holds a
 * modal or obligation cue, when a clause opens with a bare verb (whatever the verb: "Rinse the
 * cups", "Sweep up the glass"), or when the words stand in an infinitive after "to" ("reminded
 * everyone to switch off the grill": asked for, not done); a report when its first clause
 * opens with a subject ("The workers wore…", "Maria mopped the…"); otherwise unknown.
 */
export function sentenceMode(sentence: string, stems?: ReadonlySet<string>): SentenceMode {
  if (hasDirectiveCue(tokenize(sentence))) return "directive";
  return formOf(sentence, stems);
}

/** Whether a sentence states a rule, a request or an intent (see `sentenceMode`). */
export function isDirective(sentence: string, stems?: ReadonlySet<string>): boolean {
  return sentenceMode(sentence, stems) === "directive";
}

/**
 * The mode of a spec's question, from all of its probe sources: asking what is said wins, then
 * asking for a rule, else an observation. Retrieval and synthesis return passages, not claims
 * about what happened, so they always read as `mention`.
 */
export function questionMode(sources: string[], answerType: AnswerType): QuestionMode {
  if (answerType === "retrieval" || answerType === "synthesis") return "mention";
  const tokens = sources.flatMap((s) => tokenize(s));
  if (tokens.some((t) => MENTION_CUES.has(t))) return "mention";
  if (tokens.some((t) => RULE_CUES.has(t))) return "rule";
  if (tokens.some((t, i) => BEFORE_TO.has(t) && tokens[i + 1] === "to")) return "rule";
  return "observation";
}

/** Whether a sentence of this mode can support an answer to a question of this mode. */
export function fitsMode(mode: QuestionMode, sentence: SentenceMode): boolean {
  if (mode === "mention") return true;
  return sentence === (mode === "rule" ? "directive" : "report");
}
