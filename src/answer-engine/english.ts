import { isStopword } from "../lib/text/text-features";
import type { LanguageReading } from "./language-reading";
import { isNegationCue } from "./negation";
import { asksForRuleBeforeTo, isMentionCue, isRuleCue, sentenceMode } from "./statement-mode";

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

// Where text is written on screen: framing words of a question that accepts on-screen text only.
const SCREEN_WORDS = new Set(
  (
    "sign signs signage slide slides screen screens onscreen written write writes text " +
    "texts caption captions banner banners poster posters label labels board boards display " +
    "displays displayed read reads title titles heading headings notice notices overlay"
  ).split(" "),
);

/**
 * English as the engine reads it: the closed classes of negation.ts, statement-mode.ts and
 * sentence-form.ts, the light stemmer's words, and the framing words above.
 */
export const ENGLISH: LanguageReading = {
  code: "en",
  isNegationCue,
  isFunctionWord: isStopword,
  isFramingWord: (token) => FRAMING_WORDS.has(token),
  isRuleCue,
  isMentionCue,
  asksForRule: asksForRuleBeforeTo,
  isMeasureWord: (token) => MEASURE_WORDS.has(token),
  isScreenWord: (token) => SCREEN_WORDS.has(token),
  sentenceMode: (sentence, stems) => sentenceMode(sentence, stems),
  readsQuantities: true,
  capitalisesNouns: false,
};
