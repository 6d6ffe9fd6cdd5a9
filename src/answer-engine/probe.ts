import type { AnswerSpec } from "../domain/answers";
import { type ParsedQuery, parseQuery } from "../lib/text/search-scoring";
import { isStopword, tokenize } from "../lib/text/text-features";
import { isNegationCue, negatedNear } from "./negation";
import { isMentionCue, isRuleCue, type QuestionMode, questionMode } from "./statement-mode";

/** One thing an answer looks for: a cleaned query, and whether it is itself negative. */
export interface Probe {
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

// Words that say what to do with the evidence (count it, say when, summarise), not what to
// find in it. Left in, they would have to appear in the transcript for anything to match.
const FRAMING_WORDS = new Set(
  (
    "video videos clip clips footage recording recordings segment segments speaker speakers " +
    "presenter narrator someone anyone person people mention mentions mentioned mentioning " +
    "say says said saying tell tells told talk talks talked discuss discusses discussed " +
    "state states stated check checks checked whether show shows shown appear appears " +
    "appeared occur occurs occurred happen happens happened list lists enumerate identify " +
    "find return give count counts counted number numbers many much long duration total " +
    "times time first last earliest latest final timestamp timestamps second seconds minute " +
    "minutes compare comparison versus vs half halves summary summarise summarize summarises " +
    "summarizes describe describes overview key main point points topic topics event events " +
    "timeline moment moments look looks looking search see seen watch verify confirm ensure " +
    "determine detect yes true false"
  ).split(" "),
);

// Words naming what a measurement measures ("What temperature…", "What size…"): the number
// and its unit answer them, the word itself need not be said.
const MEASURE_WORDS = new Set(
  (
    "temperature temperatures size length distance height width depth weight speed amount " +
    "quantity volume price cost value level reading"
  ).split(" "),
);

const QUOTED = /"([^"]+)"/g;

function normaliseQuotes(text: string): string {
  return text.replace(/[“”„‟]/g, '"');
}

/**
 * A probe from free text, or null when nothing but framing words is left. Words asking for a
 * rule ("required", "mandatory") are left out too: the mode carries them.
 */
export function probeFrom(
  raw: string,
  mode: QuestionMode = "observation",
  measured = false,
): Probe | null {
  const text = normaliseQuotes(raw);
  const phrases = [...text.matchAll(QUOTED)].map((m) => (m[1] ?? "").trim()).filter(Boolean);
  const loose = tokenize(text.replace(QUOTED, " ")).filter(
    (t) =>
      !FRAMING_WORDS.has(t) &&
      !isNegationCue(t) &&
      !isRuleCue(t) &&
      !isMentionCue(t) &&
      !(measured && MEASURE_WORDS.has(t)),
  );
  // Function words alone ("Check the video." → "the") would match every segment.
  const words = loose.filter((t) => !isStopword(t));
  if (words.length === 0 && phrases.length === 0) return null;
  const cleaned = [...words, ...phrases.map((p) => `"${p}"`)].join(" ");
  const query = parseQuery(cleaned);
  if (query.terms.length === 0) return null;
  return {
    text: cleaned,
    query,
    negated: negatedNear(text, new Set(query.terms)),
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

/** The mode of a spec's question: the caller's when it decides it, else from its sources. */
export function specMode(spec: AnswerSpec, instructions: string, decided?: QuestionMode) {
  return decided ?? questionMode(probeSources(spec, instructions), spec.answer_type);
}

/** Every distinct probe of a spec, in source order, all of the spec's mode. */
export function buildProbes(spec: AnswerSpec, instructions: string, decided?: QuestionMode) {
  const seen = new Set<string>();
  const probes: Probe[] = [];
  const mode = specMode(spec, instructions, decided);
  const measured = spec.answer_type === "measurement";
  for (const source of probeSources(spec, instructions)) {
    const probe = probeFrom(source, mode, measured);
    if (probe === null || seen.has(probe.text)) continue;
    seen.add(probe.text);
    probes.push(probe);
  }
  return probes;
}

/** Stems of a probe's content words, for citing and negation. */
export function probeStems(probe: Probe): Set<string> {
  return new Set(probe.query.terms);
}
