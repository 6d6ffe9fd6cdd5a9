import { isIrregularPast, matchStem } from "../lib/text/irregular-verbs";
import { isNumberToken } from "./numbers";

// What a sentence's form says, from closed classes of English only (determiners, pronouns,
// quantifiers, prepositions, auxiliaries), never from a list of verbs: any verb can open an
// instruction ("Rinse the cups"), so a first word is read by what surrounds it.

// Words that open a subject: a clause starting with one reports something ("The workers…").
const SUBJECT_OPENERS = new Set(
  (
    "the a an this that these those my our his her their its we he she they it i someone " +
    "somebody everyone everybody nobody anyone anybody no all both each every some many most " +
    "several few none there one another either neither whose"
  ).split(" "),
);

// Words that follow a bare verb: its object's determiner or pronoun, or a particle or
// preposition ("Grab a vest", "Sweep up the glass", "Wait for the signal").
const AFTER_BARE_VERB = new Set(
  (
    "the a an this that these those my our your his her their its them it him us me " +
    "everyone everything everybody all both each every any some no another up down off out " +
    "in on away back over around through for to with into onto from at before after by under " +
    "behind near across along"
  ).split(" "),
);

// Finite verbs that can only follow a subject ("Oil is leaking", "Staff were told").
const AUXILIARIES = new Set("is are was were has have had did does got gets became".split(" "));

// Words that open only an instruction when no subject follows: "Please sit", "Never work…".
const IMPERATIVE_LEADS = new Set("please always never kindly do dont".split(" "));

// Words a clause may open with before its verb: "Please always wear", "Then press".
const LEAD_WORDS = new Set(
  "please always never just now then and so first next also kindly do dont simply but or finally again here today yesterday tonight earlier later".split(
    " ",
  ),
);

// Words that open a subordinate clause ("When the alarm sounded, …"): such a clause is
// neither an instruction nor the sentence's report.
const SUBORDINATORS = new Set(
  "when whenever while after before if unless as because since until although though where once".split(
    " ",
  ),
);

interface Word {
  raw: string;
  token: string;
}

function wordsOf(clause: string): Word[] {
  return (clause.normalize("NFKC").match(/[\p{L}\p{M}\p{N}'’ʼ]+/gu) ?? []).map((raw) => ({
    raw,
    token: raw.toLowerCase().replace(/['’ʼ]/gu, ""),
  }));
}

function isAdverb(token: string): boolean {
  return token.length > 4 && token.endsWith("ly");
}

function isPast(token: string): boolean {
  return isIrregularPast(token) || (token.length >= 4 && /ed$/.test(token) && !/eed$/.test(token));
}

// A plural noun ("Workers", "Vests"), never a bare verb: verbs ending in s end in -ss or -us.
function isPlural(token: string): boolean {
  return token.length > 3 && /s$/.test(token) && !/(ss|us|is)$/.test(token);
}

function capitalised(raw: string): boolean {
  return /^\p{Lu}/u.test(raw);
}

/** What may follow a subject and its past verb: an object, a preposition, a number, the end. */
function closesReport(word: Word | undefined): boolean {
  if (word === undefined) return true;
  const t = word.token;
  return AFTER_BARE_VERB.has(t) || SUBJECT_OPENERS.has(t) || isNumberToken(t) || isAdverb(t);
}

/** One clause's form: its first words, once lead words and adverbs are passed. */
function clauseForm(clause: string): "directive" | "report" | "unknown" | "subordinate" {
  const words = wordsOf(clause);
  if (SUBORDINATORS.has(words[0]?.token ?? "")) return "subordinate";
  let i = 0;
  while (
    i < words.length &&
    (LEAD_WORDS.has(words[i]?.token ?? "") || isAdverb(words[i]?.token ?? ""))
  )
    i++;
  const [w1, w2, w3, w4] = words.slice(i);
  if (w1 === undefined) return "unknown";
  const opener = words[0]?.token ?? "";
  if (i > 0 && IMPERATIVE_LEADS.has(opener) && !SUBJECT_OPENERS.has(w1.token)) return "directive";
  if (SUBJECT_OPENERS.has(w1.token) || isNumberToken(w1.token)) return "report";
  if (w2 === undefined) return "unknown";
  // A plural subject and its verb ("Workers wore vests", "Vests hang on the wall").
  if (isPlural(w1.token) && !AFTER_BARE_VERB.has(w2.token) && !isNumberToken(w2.token))
    return "report";
  if (AUXILIARIES.has(w2.token)) return "report";
  if (isPast(w2.token) && closesReport(w3)) return "report";
  // A name of two capitalised words, then its verb: "Dana Okafor signed the permit".
  if (capitalised(w1.raw) && capitalised(w2.raw) && w3 !== undefined) {
    if (AUXILIARIES.has(w3.token) || (isPast(w3.token) && closesReport(w4))) return "report";
  }
  if (AFTER_BARE_VERB.has(w2.token) || isNumberToken(w2.token)) return "directive";
  return "unknown";
}

/**
 * Whether a word with one of these stems stands in an infinitive ("to" followed by a word that
 * is no determiner): what someone was told, asked or meant to do, not what was done.
 */
function inInfinitive(sentence: string, stems: ReadonlySet<string>): boolean {
  const tokens = wordsOf(sentence).map((w) => w.token);
  const start = tokens.findIndex(
    (t, i) =>
      t === "to" &&
      tokens[i + 1] !== undefined &&
      !AFTER_BARE_VERB.has(tokens[i + 1] ?? "") &&
      !SUBJECT_OPENERS.has(tokens[i + 1] ?? "") &&
      !isNumberToken(tokens[i + 1] ?? ""),
  );
  return start >= 0 && tokens.slice(start + 1).some((t) => stems.has(matchStem(t)));
}

/**
 * The form of a sentence with no modal cue: a directive when a clause opens with a bare verb
 * or the words stand in an infinitive; a report when its first clause opens with a subject;
 * else unknown (the fail-safe reading: nothing is claimed to have happened).
 */
export function formOf(
  sentence: string,
  stems?: ReadonlySet<string>,
): "directive" | "report" | "unknown" {
  const clauses = sentence.split(/[,;:()–—]+|\s-\s/u).filter((c) => c.trim() !== "");
  const forms = clauses.map(clauseForm).filter((f) => f !== "subordinate");
  if (forms.includes("directive")) return "directive";
  if (stems !== undefined && inInfinitive(sentence, stems)) return "directive";
  return forms[0] === "report" ? "report" : "unknown";
}
