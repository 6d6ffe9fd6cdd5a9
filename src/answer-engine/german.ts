import { matchStem } from "../lib/text/irregular-verbs";
import { tokenize } from "../lib/text/text-features";
import type { LanguageReading, SentenceMode } from "./language-reading";

// German as the engine reads it: closed classes only (articles, pronouns, negations, modals,
// the polite imperative's "Sie"), never a list of verbs, and unknown wherever the form does
// not tell. The stemmer stays the light English one, so inflected forms match less often:
// that costs a found, never makes one.

const words = (text: string) => new Set(text.split(/\s+/).filter(Boolean));

const NEGATION = words(
  "nicht kein keine keinen keinem keiner keines nie niemals niemand niemanden niemandem " +
    "nichts nirgends nirgendwo ohne weder",
);

const ARTICLES = words(
  "der die das den dem des ein eine einen einem einer eines dieser diese dieses diesen " +
    "diesem jener jene jenes mein meine meinen meinem dein deine sein seine seinen seinem " +
    "ihr ihre ihren ihrem unser unsere unseren euer eure",
);

const PRONOUNS = words("er es wir ich man jemand niemand alle jeder jede jedes keiner beide");

const NUMBERS = words(
  "zwei drei vier fünf sechs sieben acht neun zehn elf zwölf zwanzig dreißig vierzig " +
    "fünfzig hundert tausend einige viele mehrere wenige",
);

const FUNCTION = words(
  `${[...ARTICLES].join(" ")} und oder aber doch denn sondern ist sind war waren wird werden ` +
    "wurde wurden hat haben hatte hatten habe sein bin bist seid es er sie wir ich du ihr man " +
    "sich mich dich uns euch ihm ihn ihnen mit von vom zu zum zur im in ins am an auf aus bei " +
    "beim für um über unter vor nach bis durch gegen als wie wo wer was wann warum welche " +
    "welcher welches welchen ob dass jemand etwas auch noch schon sehr so dann da hier heute " +
    "dort denn mal gibt gab es",
);

const FRAMING = words(
  "video videos clip clips aufnahme aufnahmen film sprecher sprecherin person personen " +
    "irgendwer irgendjemand zeigt zeigen gezeigt sichtbar sehen sieht gesehen prüfe prüfen " +
    "überprüfe überprüfen kontrolliere kontrollieren liste auflisten nenne zähle zählen " +
    "anzahl viele oft zuerst zuletzt erste ersten letzte letzten dauer lange zeit zeitpunkt " +
    "sekunden minuten zusammenfassung fasse zusammen beschreibe überblick moment momente " +
    "ereignis ereignisse vorkommen vorkommt passiert geschieht stimmt",
);

// Where text is written on screen: framing words of a question that accepts on-screen text only.
const SCREEN = words(
  "schild schilder folie folien bildschirm text texte steht stehen geschrieben beschriftung " +
    "aufschrift einblendung titel tafel anzeige plakat",
);

const MENTION = words(
  "erwähnt erwähnen erwähnte erwähnten sagt sagen sagte sagten gesagt spricht sprechen " +
    "sprach gesprochen redet reden redete geredet erklärt erklären erklärte erinnert " +
    "erinnern erinnerte bittet bitten bat gebeten warnt warnen warnte gewarnt fordert " +
    "fordern forderte aufgefordert empfiehlt empfehlen empfahl empfohlen rät raten riet " +
    "geraten kündigt angekündigt teilt mitgeteilt informiert informieren nennt nennen nannte " +
    "genannt betont betonen betonte wiederholt ruft rief gerufen",
);

const RULE = words(
  "muss müssen musste mussten soll sollen sollte sollten darf dürfen pflicht pflichten " +
    "vorgeschrieben verpflichtet verpflichtend erforderlich notwendig regel regeln " +
    "vorschrift vorschriften anweisung anweisungen angewiesen verboten erlaubt gestattet",
);

// Words that make a sentence a rule, request or intent: modals, "bitte", obligation words.
// "wird"/"werden" mark a future or a passive alike; read as intent, they cost a found at most.
const MODAL = words(
  "muss müssen musst müsst soll sollen sollst sollt sollte sollten darf dürfen darfst dürft " +
    "bitte will wollen willst wollt möchte möchten wird werden plant planen geplant " +
    "pflicht erforderlich vorgeschrieben verboten verpflichtet",
);

const PHRASES = [
  ["lass", "uns"],
  ["lasst", "uns"],
  ["denk", "daran"],
  ["denkt", "daran"],
  ["denken", "sie", "daran"],
  ["vergiss", "nicht"],
  ["vergessen", "sie", "nicht"],
  ["achte", "darauf"],
  ["achten", "sie", "darauf"],
  ["sorge", "dafür"],
  ["sorgen", "sie", "dafür"],
  ["ist", "zu"],
  ["sind", "zu"],
];

// Words a clause may open with before its verb: "Bitte tragen Sie…", "Dann stapelt…".
const LEADS = words(
  "bitte immer nie niemals dann jetzt auch zuerst danach zuletzt also einfach und aber " +
    "heute gestern morgen später vorher hier dort",
);

const SUBORDINATORS = words(
  "wenn als nachdem bevor falls weil da während obwohl sobald bis dass ob sofern damit",
);

// Separable prefixes of a "zu" infinitive written as one word ("auszuschalten").
const ZU_INFINITIVE =
  /^(ab|an|auf|aus|ein|mit|nach|vor|weg|zurück|zu|um|durch|über|her|hin|los|fest|frei)zu\p{L}{3,}en$/u;

interface Word {
  raw: string;
  token: string;
}

function wordsOf(clause: string): Word[] {
  return (clause.normalize("NFKC").match(/[\p{L}\p{M}\p{N}]+/gu) ?? []).map((raw) => ({
    raw,
    token: raw.toLowerCase(),
  }));
}

function isNumber(token: string): boolean {
  return /^\d/.test(token) || NUMBERS.has(token);
}

function hasPhrase(tokens: string[], phrase: string[]): boolean {
  return tokens.some((_, i) => phrase.every((word, j) => tokens[i + j] === word));
}

/** One clause's form from its first words, once lead words are passed. */
function clauseForm(clause: string): SentenceMode | "subordinate" {
  const all = wordsOf(clause);
  if (SUBORDINATORS.has(all[0]?.token ?? "")) return "subordinate";
  let i = 0;
  while (i < all.length && LEADS.has(all[i]?.token ?? "")) i++;
  const [w1, w2] = all.slice(i);
  if (w1 === undefined) return "unknown";
  // The polite imperative: the verb first, then "Sie" ("Tragen Sie Handschuhe").
  if (w2?.raw === "Sie" && !ARTICLES.has(w1.token) && !PRONOUNS.has(w1.token)) return "directive";
  // A subject first: an article, a pronoun other than "Sie", a quantifier or a number.
  if (i === 0 && (ARTICLES.has(w1.token) || PRONOUNS.has(w1.token) || isNumber(w1.token)))
    return "report";
  if (i === 0 && w1.raw === "sie") return "report";
  // After an adverb the finite verb comes second and the subject after it (V2).
  if (i > 0 && w2 !== undefined && PRONOUNS.has(w2.token)) return "report";
  // A notice in the infinitive: "Helm tragen!", "Nicht rauchen.", "Türen geschlossen halten."
  const last = all[all.length - 1]?.token ?? "";
  // An infinitive ends the notice; after an article the last word is a noun ("den Boden").
  const infinitiveLast =
    /(en|ern|eln)$/.test(last) && !ARTICLES.has(all[all.length - 2]?.token ?? "");
  if (all.length <= 4 && infinitiveLast && !NEGATION.has(w1.token)) {
    if (!(i === 0 && (ARTICLES.has(w1.token) || PRONOUNS.has(w1.token)))) return "directive";
  }
  if (all.length <= 4 && NEGATION.has(all[0]?.token ?? "") && infinitiveLast) return "directive";
  // A verb first with its object ("Trag den Helm", "Räumt die Halle auf").
  if (i === 0 && w2 !== undefined && (ARTICLES.has(w2.token) || isNumber(w2.token)))
    return "directive";
  return "unknown";
}

/** Whether a word with one of these stems stands in a "zu" infinitive: asked, not done. */
function inInfinitive(sentence: string, stems: ReadonlySet<string>): boolean {
  const tokens = wordsOf(sentence).map((w) => w.token);
  return tokens.some((t, i) => {
    const infinitive =
      ZU_INFINITIVE.test(t) || (t === "zu" && /(en|ern|eln)$/.test(tokens[i + 1] ?? ""));
    if (!infinitive) return false;
    const verb = t === "zu" ? (tokens[i + 1] ?? "") : t;
    const before = tokens.slice(Math.max(0, i - 4), i);
    return stems.has(matchStem(verb)) || before.some((w) => stems.has(matchStem(w)));
  });
}

/** The mode of a German sentence towards the words whose stems are given. */
function germanSentenceMode(sentence: string, stems?: ReadonlySet<string>): SentenceMode {
  const tokens = tokenize(sentence);
  if (tokens.some((t) => MODAL.has(t)) || PHRASES.some((p) => hasPhrase(tokens, p)))
    return "directive";
  const clauses = sentence.split(/[,;:()–—]+|\s-\s/u).filter((c) => c.trim() !== "");
  const forms = clauses.map(clauseForm).filter((f) => f !== "subordinate");
  if (forms.includes("directive")) return "directive";
  if (stems !== undefined && inInfinitive(sentence, stems)) return "directive";
  return forms[0] === "report" ? "report" : "unknown";
}

/** German as the engine reads it (docs/answer-engine.md §2, languages). */
export const GERMAN: LanguageReading = {
  code: "de",
  isNegationCue: (token) => NEGATION.has(token),
  isFunctionWord: (token) => FUNCTION.has(token),
  isFramingWord: (token) => FRAMING.has(token),
  isRuleCue: (token) => RULE.has(token),
  isMentionCue: (token) => MENTION.has(token),
  asksForRule: (tokens) => hasPhrase(tokens, ["ist", "zu"]) || hasPhrase(tokens, ["sind", "zu"]),
  isMeasureWord: () => false,
  isScreenWord: (token) => SCREEN.has(token),
  sentenceMode: germanSentenceMode,
  readsQuantities: false,
  capitalisesNouns: true,
};
