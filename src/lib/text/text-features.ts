/** Size of the hashed feature space whose document frequencies are counted (2^20). */
export const FEATURE_BUCKETS = 1 << 20;

/** Feature groups: stemmed words, adjacent content-word pairs, character 3/4-grams of words. */
export const WORD = 0;
export const PAIR = 1;
export const GRAM = 2;
/** One of WORD, PAIR, GRAM. */
export type FeatureGroup = typeof WORD | typeof PAIR | typeof GRAM;

/**
 * The distinct hashed features of a text, as parallel arrays (a document has hundreds, and
 * objects per feature would be mostly garbage-collector work).
 */
export interface TextFeatures {
  hashes: number[];
  groups: FeatureGroup[];
  /** Occurrences in the text. */
  counts: number[];
  /** Fixed down-weighting (stopwords), applied on top of tf·idf. */
  boosts: number[];
}

const STOPWORD_BOOST = 0.2;
/** Longer tokens (URLs, hashes) add little meaning per gram; cap their grams. */
const MAX_GRAM_WORD = 24;

const STOPWORDS = new Set(
  (
    "a about above after again against all also am an and any are as at be because been before " +
    "being below between both but by can could did do does doing down during each few for from " +
    "further had has have having he her here hers him his how i if in into is it its itself just " +
    "may me might more most must my no nor not now of off on once only or other our ours out over " +
    "own same shall she should so some such than that the their theirs them then there these they " +
    "this those through to too under until up very was we were what when where which while who " +
    "whom whose why will with would you your yours"
  ).split(" "),
);

/** Lowercase Unicode word tokens: NFKC, apostrophes dropped inside words, digits kept. */
export function tokenize(text: string): string[] {
  return (
    text
      .normalize("NFKC")
      .toLowerCase()
      .replace(/['’ʼ`]/gu, "")
      .match(/[\p{L}\p{M}\p{N}]+/gu) ?? []
  );
}

/** Whether a token is an English function word (kept, but down-weighted). */
export function isStopword(token: string): boolean {
  return STOPWORDS.has(token);
}

const FNV_OFFSET = 0x811c9dc5;

/** One step of 32-bit FNV-1a over UTF-16 code units (the state is unsigned only at the end). */
function fnvStep(hash: number, code: number): number {
  return Math.imul(hash ^ code, 0x01000193);
}

function fnvFold(hash: number, text: string): number {
  let h = hash;
  for (let i = 0; i < text.length; i++) h = fnvStep(h, text.charCodeAt(i));
  return h;
}

/** Murmur3's finaliser: decorrelates the bits that pick the dimension and the sign. */
export function mix32(value: number): number {
  let h = value ^ (value >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The IDF bucket of a feature hash (its top 20 bits). */
export function bucketOf(hash: number): number {
  return Math.floor(hash / (2 ** 32 / FEATURE_BUCKETS));
}

/** FNV states after `${group}\u0001`: a feature's hash is FNV-1a of that prefix and its key. */
const SEEDS = [WORD, PAIR, GRAM].map((group) => fnvFold(FNV_OFFSET, `${group}\u0001`));
const LT = "<".charCodeAt(0);
const GT = ">".charCodeAt(0);
const SPACE = " ".charCodeAt(0);

/** Every distinct feature of a text; hashes are computed on the fly, without substrings. */
export function textFeatures(text: string): TextFeatures {
  const features: TextFeatures = { hashes: [], groups: [], counts: [], boosts: [] };
  const seen = new Map<number, number>();
  const add = (group: FeatureGroup, state: number, boost: number) => {
    const hash = state >>> 0;
    const at = seen.get(hash);
    if (at !== undefined) {
      features.counts[at] = (features.counts[at] ?? 0) + 1;
      return;
    }
    seen.set(hash, features.hashes.length);
    features.hashes.push(hash);
    features.groups.push(group);
    features.counts.push(1);
    features.boosts.push(boost);
  };
  let previous: string | null = null;
  for (const token of tokenize(text)) {
    if (isStopword(token)) {
      add(WORD, fnvFold(SEEDS[WORD] ?? 0, token), STOPWORD_BOOST);
      continue;
    }
    const stem = stemEnglish(token);
    add(WORD, fnvFold(SEEDS[WORD] ?? 0, stem), 1);
    if (previous !== null) {
      add(PAIR, fnvFold(fnvStep(fnvFold(SEEDS[PAIR] ?? 0, previous), SPACE), stem), 1);
    }
    previous = stem;
    if (!/^\p{N}+$/u.test(token)) addGrams(token.slice(0, MAX_GRAM_WORD), (h) => add(GRAM, h, 1));
  }
  return features;
}

/** The 3- and 4-grams of `<word>`, each 4-gram extending the 3-gram at the same start. */
function addGrams(word: string, add: (state: number) => void): void {
  const padded = word.length + 2;
  const code = (i: number) => (i === 0 ? LT : i === padded - 1 ? GT : word.charCodeAt(i - 1));
  for (let i = 0; i + 3 <= padded; i++) {
    let h = fnvStep(fnvStep(fnvStep(SEEDS[GRAM] ?? 0, code(i)), code(i + 1)), code(i + 2));
    add(h);
    if (i + 4 <= padded) {
      h = fnvStep(h, code(i + 3));
      add(h);
    }
  }
}

const VOWELS = "aeiou";

function isConsonant(word: string, i: number): boolean {
  const c = word[i] ?? "";
  if (VOWELS.includes(c)) return false;
  return c !== "y" || i === 0 || !isConsonant(word, i - 1);
}

/** Porter's m: the number of vowel→consonant transitions. */
function measure(word: string): number {
  let m = 0;
  for (let i = 1; i < word.length; i++) {
    if (isConsonant(word, i) && !isConsonant(word, i - 1)) m++;
  }
  return m;
}

function hasVowel(word: string): boolean {
  for (let i = 0; i < word.length; i++) if (!isConsonant(word, i)) return true;
  return false;
}

/** Ends consonant-vowel-consonant, the last not w, x or y ("driv" of "driving"). */
function endsCvc(word: string): boolean {
  const n = word.length;
  if (n < 3) return false;
  const last = word[n - 1] ?? "";
  return (
    isConsonant(word, n - 1) &&
    !isConsonant(word, n - 2) &&
    isConsonant(word, n - 3) &&
    !"wxy".includes(last)
  );
}

/**
 * A light English stemmer (Porter's step 1: plurals, -ed, -ing, plus -ly): conflates
 * inflections ("forklifts", "driving") without Porter's later, riskier derivational steps.
 * Non-ASCII words are left alone; their character grams still match.
 */
export function stemEnglish(word: string): string {
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  let w = word;
  if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("ies")) w = w.length > 4 ? `${w.slice(0, -3)}y` : w.slice(0, -1);
  else if (!/(ss|us|is)$/.test(w) && w.endsWith("s")) w = w.slice(0, -1);

  if (w.endsWith("eed")) {
    if (measure(w.slice(0, -3)) > 0) w = w.slice(0, -1);
  } else {
    const suffix = w.endsWith("ing") ? "ing" : w.endsWith("ed") ? "ed" : null;
    const base = suffix === null ? "" : w.slice(0, -suffix.length);
    if (suffix !== null && hasVowel(base) && base.length >= 2) w = restoreEnding(base);
  }
  if (w.endsWith("ly") && w.length > 5) w = w.slice(0, -2);
  return w;
}

/** Repairs a stem after -ed/-ing: "hopp" → "hop", "operat" → "operate", "driv" → "drive". */
function restoreEnding(base: string): string {
  if (/(at|bl|iz)$/.test(base)) return `${base}e`;
  const n = base.length;
  if (
    n >= 2 &&
    base[n - 1] === base[n - 2] &&
    isConsonant(base, n - 1) &&
    !"lsz".includes(base[n - 1] ?? "")
  ) {
    return base.slice(0, -1);
  }
  if (measure(base) === 1 && endsCvc(base)) return `${base}e`;
  return base;
}
