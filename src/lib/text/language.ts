import { franc } from "franc-min";

// ISO 639-2 (B and T) and 639-3 codes of the languages franc-min knows best, to their 639-1
// code, so a track tagged `eng` or `ger`, Whisper's `en` and a run locale `en-GB` compare.
const TO_639_1: Record<string, string> = {
  eng: "en",
  deu: "de",
  ger: "de",
  fra: "fr",
  fre: "fr",
  spa: "es",
  por: "pt",
  ita: "it",
  nld: "nl",
  dut: "nl",
  pol: "pl",
  rus: "ru",
  ukr: "uk",
  tur: "tr",
  ara: "ar",
  arb: "ar",
  hin: "hi",
  ben: "bn",
  jpn: "ja",
  kor: "ko",
  zho: "zh",
  chi: "zh",
  cmn: "zh",
  swe: "sv",
  dan: "da",
  nor: "no",
  nob: "nb",
  fin: "fi",
  ces: "cs",
  cze: "cs",
  ell: "el",
  gre: "el",
  heb: "he",
  hun: "hu",
  ron: "ro",
  rum: "ro",
  vie: "vi",
  ind: "id",
  tha: "th",
  pes: "fa",
  fas: "fa",
  per: "fa",
  urd: "ur",
  swh: "sw",
  tgl: "tl",
  cat: "ca",
  slk: "sk",
  slo: "sk",
  bul: "bg",
  hrv: "hr",
  srp: "sr",
  lit: "lt",
  lav: "lv",
  est: "et",
  slv: "sl",
};

/** The primary language of a tag or locale as ISO 639-1 where known: `eng`, `en-GB` → `en`. */
export function baseLanguage(code: string): string {
  const primary = code.trim().toLowerCase().split(/[-_]/)[0] ?? "";
  return TO_639_1[primary] ?? primary;
}

/** Whether two language tags name the same language (`eng` and `en-US` do). */
export function sameLanguage(a: string, b: string): boolean {
  return baseLanguage(a) === baseLanguage(b);
}

/** Fewer characters than this are too short to tell a language from. */
export const MIN_DETECT_CHARS = 40;

/**
 * The language of a text, detected from its trigrams (franc-min, offline, pure JS), as
 * ISO 639-1 where known; null when the text is too short or the detector cannot tell.
 */
export function detectLanguage(text: string): string | null {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length < MIN_DETECT_CHARS) return null;
  const code = franc(flat, { minLength: MIN_DETECT_CHARS });
  return code === "und" ? null : baseLanguage(code);
}
