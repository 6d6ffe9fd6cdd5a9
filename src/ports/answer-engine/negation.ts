import { stemEnglish, tokenize } from "../../lib/text/text-features";

/** How many words before a matched word a negation cue may stand and still negate it. */
export const NEGATION_WINDOW = 3;

// Apostrophes are dropped by the tokenizer, so "don't" arrives as "dont".
const NEGATION_CUES = new Set(
  (
    "not no never without nor none neither nobody nothing nowhere cannot dont doesnt didnt " +
    "isnt arent wasnt werent cant couldnt wont wouldnt shouldnt mustnt hasnt havent hadnt aint"
  ).split(" "),
);

/** Whether a token is a negation cue ("not", "never", "without", "don't", ...). */
export function isNegationCue(token: string): boolean {
  return NEGATION_CUES.has(token);
}

/** Sentences (and clauses after `;` or `:`): a cue never reaches across them. */
function sentences(text: string): string[] {
  return text.split(/[.!?;:\n]+/u);
}

/**
 * Whether a negation cue stands within NEGATION_WINDOW words before any word whose stem is in
 * `stems`, inside one sentence: "do not wear gloves" negates "wear" and "gloves".
 */
export function negatedNear(text: string, stems: ReadonlySet<string>): boolean {
  for (const sentence of sentences(text)) {
    const tokens = tokenize(sentence);
    for (let i = 0; i < tokens.length; i++) {
      if (!stems.has(stemEnglish(tokens[i] ?? ""))) continue;
      for (let j = Math.max(0, i - NEGATION_WINDOW); j < i; j++) {
        if (isNegationCue(tokens[j] ?? "")) return true;
      }
    }
  }
  return false;
}
