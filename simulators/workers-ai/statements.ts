import { isNegationCue } from "../../src/answer-engine/negation";
import { isDirective } from "../../src/answer-engine/statement-mode";
import { matchStem } from "../../src/lib/text/irregular-verbs";
import { sameLanguage } from "../../src/lib/text/language";
import { stems } from "../../src/lib/text/search-scoring";
import { tokenize } from "../../src/lib/text/text-features";

// What the adversarial answer model reads in a sentence, in English and German: enough to
// pick the sentence a language model would misread, never to judge it.

const GERMAN_NEGATIONS = new Set(
  "nicht kein keine keinen keinem keiner keines niemand niemanden niemandem nie niemals nichts ohne nirgends weder".split(
    " ",
  ),
);

const GERMAN_MODALS = new Set(
  "bitte muss müssen musst müsst soll sollen sollst sollt sollte sollten darf dürfen verboten vorgeschrieben pflicht".split(
    " ",
  ),
);

// "Tragen Sie …", "Denken Sie daran …": the polite imperative opens with the verb before "Sie".
const GERMAN_IMPERATIVE = /^\p{Lu}\p{Ll}+n\s+Sie\b/u;

/** Sentences of a text: caption line breaks are layout, `. ! ? ;` before a space end one. */
export function sentencesOf(text: string): string[] {
  return text
    .replace(/\s+/g, " ")
    .trim()
    .split(/(?<=[.!?;])\s+/u)
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

// German words that say nothing of what is asked: kept out of the question's words, so "die"
// in a question does not make every German sentence related to it.
const GERMAN_FUNCTION_WORDS = new Set(
  stems(
    "der die das den dem des ein eine einer eines einem einen und oder aber im in am an auf aus bei mit nach von vor zu zur zum für über unter um ist sind war waren wird werden wurde wurden hat haben hatte es er sie wir ihr ich du man sich jemand",
  ),
);

/** The stems that say what a question asks, without German function words. */
export function askedStems(questionStems: Iterable<string>): Set<string> {
  return new Set([...questionStems].filter((s) => !GERMAN_FUNCTION_WORDS.has(s)));
}

const isCue = (token: string) => isNegationCue(token) || GERMAN_NEGATIONS.has(token);

/** How many negation cues, English or German, a text holds. */
export function negations(text: string): number {
  return tokenize(text).filter(isCue).length;
}

/** Whether a sentence holds a negation, English or German. */
export function isNegated(sentence: string): boolean {
  return negations(sentence) > 0;
}

/**
 * Whether a negation bears on the given words: a cue at most four words before one of them,
 * or two after (German puts "nicht" late: "Die Arbeiter tragen die Helme nicht").
 */
export function negates(sentence: string, about: ReadonlySet<string>): boolean {
  const tokens = tokenize(sentence);
  const hits = tokens.flatMap((t, i) => (about.has(matchStem(t)) ? [i] : []));
  return tokens.some(
    (t, j) => isCue(t) && hits.some((i) => (i > j && i - j <= 4) || (j > i && j - i <= 2)),
  );
}

// Words a yes-no question or a rule may open with before what it is about.
const OPENERS = new Set(
  "was were is are did does do has have had can could will would should must shall may might there be been wurde wurden ist sind hat haben wird werden gibt es".split(
    " ",
  ),
);

/**
 * Whether a question or rule forbids something: a negation governs it from its opening ("No
 * smoking near the door", "Was nobody without a helmet?", "Kein Rauchen"), so the sentence
 * that breaks it holds one negation fewer ("Someone smoked by the door").
 */
export function isProhibition(text: string): boolean {
  const first = tokenize(text).find((t) => !OPENERS.has(t));
  return first !== undefined && isCue(first);
}

/**
 * Whether a sentence states a rule, request or instruction: by the German cues for German
 * text, else by the service's English rules (statement-mode.ts).
 */
export function isInstruction(
  sentence: string,
  language: string | null,
  about?: ReadonlySet<string>,
): boolean {
  if (language !== null && sameLanguage(language, "de")) {
    return (
      tokenize(sentence).some((t) => GERMAN_MODALS.has(t)) ||
      GERMAN_IMPERATIVE.test(sentence.trim())
    );
  }
  return isDirective(sentence, about);
}

/** How many of the given stems a text holds. */
export function sharedStems(text: string, wanted: ReadonlySet<string>): number {
  return new Set(stems(text).filter((s) => wanted.has(s))).size;
}

/** Text as the service compares quotes: NFKC, lower case, runs of non-letters as one space. */
export function normalised(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** Whether a quote stands word for word in a text. */
export function standsIn(quote: string, text: string): boolean {
  const q = normalised(quote);
  return q !== "" && ` ${normalised(text)} `.includes(` ${q} `);
}
