import { tokenize } from "../lib/text/text-features";
import type { SentenceMode } from "./language-reading";
import { formOf } from "./sentence-form";

// Question words that ask what is said, not what happened: speech-act verbs, a closed class
// of English. They are framing too (question-probes.ts): what was said is looked for, not the verb.
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
// (question-probes.ts): "required" need not appear in "Operators must wear vests".
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

/** Whether the words ask for a rule as "need to", "have to", "going to" do. */
export function asksForRuleBeforeTo(tokens: string[]): boolean {
  return tokens.some((t, i) => BEFORE_TO.has(t) && tokens[i + 1] === "to");
}
