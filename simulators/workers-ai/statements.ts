import { isNegationCue } from "../../src/answer-engine/negation";
import { isDirective } from "../../src/answer-engine/statement-mode";
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

/** Whether a sentence holds a negation, English or German. */
export function isNegated(sentence: string): boolean {
  return tokenize(sentence).some((t) => isNegationCue(t) || GERMAN_NEGATIONS.has(t));
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
  if (language?.toLowerCase().startsWith("de")) {
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
