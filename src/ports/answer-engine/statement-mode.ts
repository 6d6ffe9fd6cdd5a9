import type { AnswerType } from "../../domain/answers";
import { tokenize } from "../../lib/text/text-features";

/**
 * What a question asks for:
 * - `observation`: that something happened or is the case ("Do the workers wear hard hats?");
 *   a sentence stating a rule or intent ("Workers must wear hard hats") is no evidence of it;
 * - `rule`: that a rule or instruction exists ("Are operators required to wear vests?"); a
 *   sentence saying it happened is no evidence of the rule;
 * - `mention`: what is said ("Is the vest rule mentioned?"); any sentence saying it counts.
 */
export type QuestionMode = "observation" | "rule" | "mention";

// Question words that ask what is said, not what happened.
const MENTION_CUES = new Set(
  (
    "mention mentions mentioned mentioning say says said saying talk talks talked talking " +
    "discuss discusses discussed discussing state states stated speak speaks spoke spoken " +
    "quote quotes quoted remind reminds reminded announce announces announced advise advises " +
    "advised"
  ).split(" "),
);

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

// Words a sentence may start with before its verb in an imperative: "Please always wear".
const LEAD_WORDS = new Set(
  "please always never just now then and so first next also kindly do dont simply".split(" "),
);

// Base-form verbs of instructions and procedures. A sentence starting with one (after the lead
// words) is an imperative: "Wear a hard hat.", "Report every spill." Only these are known.
const IMPERATIVE_VERBS = new Set(
  (
    "wear use keep put report lock unlock follow hold wash clean close open turn switch store " +
    "secure inspect sign scan carry stay avoid remove take lift stop wait leave bring make " +
    "ensure clear mark label move place return call tell ask give check apply fasten press " +
    "pull push mind be don watch look walk drive park load unload stack shut replace read " +
    "write fill empty tidy dispose pick raise lower set attach tighten loosen cover protect " +
    "wipe preheat whisk fold bake mix stir pour add cut sand spread inflate lever recount " +
    "upload count remember try"
  ).split(" "),
);

function hasPhrase(tokens: string[], phrase: string[]): boolean {
  return tokens.some((_, i) => phrase.every((word, j) => tokens[i + j] === word));
}

/**
 * Whether a sentence states a rule, a request or an intent ("Workers must wear hard hats",
 * "Please wear ear protection", "Wear your vest", "We will wear masks") rather than reporting
 * what happened ("The workers wore hard hats"). Lexical: modal and obligation words anywhere
 * in the sentence, a few phrases, and imperatives that start with a known verb.
 */
export function isDirective(sentence: string): boolean {
  const tokens = tokenize(sentence);
  if (tokens.some((t) => MODAL_CUES.has(t))) return true;
  if (tokens.some((t, i) => BEFORE_TO.has(t) && tokens[i + 1] === "to")) return true;
  if (tokens.some((t, i) => (t === "are" || t === "is") && tokens[i + 1] === "to")) return true;
  if (PHRASES.some((p) => hasPhrase(tokens, p))) return true;
  const first = tokens.find((t) => !LEAD_WORDS.has(t));
  return first !== undefined && IMPERATIVE_VERBS.has(first);
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

/** Whether a sentence can support an answer to a question of this mode. */
export function fitsMode(mode: QuestionMode, directive: boolean): boolean {
  return mode === "mention" || directive === (mode === "rule");
}
