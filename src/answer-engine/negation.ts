import { matchStem } from "../lib/text/irregular-verbs";
import { tokenize } from "../lib/text/text-features";

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
export function negatedNear(
  text: string,
  stems: ReadonlySet<string>,
  isCue: (token: string) => boolean = isNegationCue,
): boolean {
  return polarityOf(text, stems, isCue) === "negative";
}

/**
 * What a text says about the words whose stems are given, as far as a lexical reading can tell:
 * - `positive`: no negation cue in any clause holding one of the words;
 * - `negative`: exactly one cue there, standing within NEGATION_WINDOW words before one of them
 *   ("the vest was not worn", "nobody wore a vest");
 * - `unclear`: two or more cues (a double negative, "no one was without a helmet", reads
 *   positive to a person but cannot be told apart from "no one works without X" by counting),
 *   or one cue that is not just before a word ("vests were worn by nobody").
 */
export function polarityOf(
  text: string,
  stems: ReadonlySet<string>,
  isCue: (token: string) => boolean = isNegationCue,
): "positive" | "negative" | "unclear" {
  let cues = 0;
  let near = 0;
  for (const sentence of sentences(text)) {
    const tokens = tokenize(sentence);
    const hits = tokens.flatMap((t, i) => (stems.has(matchStem(t)) ? [i] : []));
    if (hits.length === 0) continue;
    tokens.forEach((token, j) => {
      if (!isCue(token)) return;
      cues++;
      if (hits.some((i) => j < i && i - j <= NEGATION_WINDOW)) near++;
    });
  }
  if (cues === 0) return "positive";
  return cues === 1 && near === 1 ? "negative" : "unclear";
}
