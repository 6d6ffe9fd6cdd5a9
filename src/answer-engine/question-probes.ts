import type { AnswerSpec } from "../domain/answers";
import { type ParsedQuery, parseQuery } from "../lib/text/search-scoring";
import { tokenize } from "../lib/text/text-features";
import { ENGLISH } from "./english";
import { kindRequirement } from "./evidence-kinds";
import { type LanguageReading, type QuestionMode, questionMode } from "./language-reading";
import { negatedNear } from "./negation";

/** One thing an answer looks for: a cleaned query, and whether it is itself negative. */
export interface QuestionProbe {
  /** The query as matched: content words, quoted phrases kept in quotes. */
  text: string;
  query: ParsedQuery;
  /** "Do operators work without gloves?" looks for a negated statement. */
  negated: boolean;
  /** Whether it asks what happened, for a rule, or what is said (statement-mode.ts). */
  mode: QuestionMode;
  /** Only quoted phrases: it asks for words as written, so their absence is an answer. */
  literal: boolean;
}

const QUOTED = /"([^"]+)"/g;

function normaliseQuotes(text: string): string {
  return text.replace(/[“”„‟]/g, '"');
}

/**
 * A probe from free text in the question's language, or null when nothing but framing words
 * is left. Words asking for a rule ("required", "mandatory") are left out too: the mode
 * carries them.
 */
export function probeFrom(
  raw: string,
  mode: QuestionMode = "observation",
  measured = false,
  reading: LanguageReading = ENGLISH,
  screenOnly = false,
): QuestionProbe | null {
  const text = normaliseQuotes(raw);
  const phrases = [...text.matchAll(QUOTED)].map((m) => (m[1] ?? "").trim()).filter(Boolean);
  const loose = tokenize(text.replace(QUOTED, " ")).filter(
    (t) =>
      !reading.isFramingWord(t) &&
      !reading.isNegationCue(t) &&
      !reading.isRuleCue(t) &&
      !reading.isMentionCue(t) &&
      !(measured && reading.isMeasureWord(t)) &&
      !(screenOnly && reading.isScreenWord(t)),
  );
  // Function words alone ("Check the video." → "the") would match every segment.
  const words = loose.filter((t) => !reading.isFunctionWord(t));
  if (words.length === 0 && phrases.length === 0) return null;
  const cleaned = [...words, ...phrases.map((p) => `"${p}"`)].join(" ");
  const query = parseQuery(cleaned);
  if (query.terms.length === 0) return null;
  return {
    text: cleaned,
    query,
    negated: negatedNear(text, new Set(query.terms), reading.isNegationCue),
    mode,
    literal: words.length === 0,
  };
}

/** The answer key's words: `vest_check` → "vest check". */
export function keyWords(answerKey: string): string {
  return answerKey.replace(/[_\-.]+/g, " ").trim();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// Users write instructions as paragraphs: a sentence (or a line) is the unit that can be about
// one answer. Sentence ends are `. ! ?` (and `;`) before a space, and line breaks.
const SENTENCE_BREAK = /(?<=[.!?;])\s+|\r?\n/u;

/**
 * Sentences of the profile instructions that name this answer key (as a whole word, as written
 * or with `_` as spaces), with the key taken out.
 */
export function instructionSentences(instructions: string, answerKey: string): string[] {
  const forms = [...new Set([answerKey, keyWords(answerKey)])].filter((f) => f !== "");
  if (forms.length === 0) return [];
  // Whole words only: the key `check` must not pick up a sentence about a "checklist".
  const source = `(?<![\\p{L}\\p{N}_])(?:${forms.map(escapeRegExp).join("|")})(?![\\p{L}\\p{N}_])`;
  return instructions
    .split(SENTENCE_BREAK)
    .filter((sentence) => new RegExp(source, "iu").test(sentence))
    .map((sentence) => sentence.replace(new RegExp(source, "giu"), " ").trim());
}

/**
 * The texts an answer looks for, every one specific to the spec: its description, each
 * field's description and label, and each instruction sentence naming the key. Instructions
 * are shared by every spec of the profile, so a sentence that does not name the key is not
 * about this answer. The key itself is a name, never a word to look for ("spill_times" would
 * otherwise look for "times").
 */
export function probeSources(spec: AnswerSpec, instructions: string): string[] {
  return [
    spec.description ?? "",
    ...(spec.fields ?? []).flatMap((f) => [f.description ?? "", f.label]),
    ...instructionSentences(instructions, spec.answer_key),
  ];
}

/** Whether a spec accepts on-screen text only: its question is about what is written. */
export function asksForScreenText(spec: AnswerSpec): boolean {
  const { kinds } = kindRequirement(spec);
  return kinds.size === 1 && kinds.has("ocr");
}

/**
 * The mode of a spec's question: the caller's when it decides it; `mention` when it accepts
 * on-screen text only (a sign or slide states, it neither reports nor rules); else from its
 * sources.
 */
export function specMode(
  spec: AnswerSpec,
  instructions: string,
  decided?: QuestionMode,
  reading: LanguageReading = ENGLISH,
) {
  if (decided) return decided;
  if (asksForScreenText(spec)) return "mention";
  return questionMode(probeSources(spec, instructions), spec.answer_type, reading);
}

/** Every distinct probe of a spec, in source order, all of the spec's mode. */
export function buildProbes(
  spec: AnswerSpec,
  instructions: string,
  decided?: QuestionMode,
  reading: LanguageReading = ENGLISH,
) {
  const seen = new Set<string>();
  const probes: QuestionProbe[] = [];
  const mode = specMode(spec, instructions, decided, reading);
  const measured = spec.answer_type === "measurement";
  // "What does the sign say?" asked of on-screen text names where to read, not what to find.
  const screenOnly = asksForScreenText(spec);
  for (const source of probeSources(spec, instructions)) {
    const probe = probeFrom(source, mode, measured, reading, screenOnly);
    if (probe === null || seen.has(probe.text)) continue;
    seen.add(probe.text);
    probes.push(probe);
  }
  return probes;
}

/** Stems of a probe's content words, for citing and negation. */
export function probeStems(probe: QuestionProbe): Set<string> {
  return new Set(probe.query.terms);
}
