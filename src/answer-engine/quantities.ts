import { matchStem } from "../lib/text/irregular-verbs";
import { isStopword, tokenize } from "../lib/text/text-features";
import { readNumber, TIMES_WORDS } from "./numbers";

/** The kinds of stated quantity a measurement can ask for. */
export type Family = "time" | "temperature" | "length" | "weight" | "any";

/**
 * What a measurement asks the captions to state: a count of a thing ("How many pallets…"), of
 * times ("How many times…", "How often…"), or a value with a unit ("How long…", "What
 * temperature…"); null when it asks for something else (a time in the video, mentions).
 */
export type StatedAsk =
  | { kind: "count"; nouns: string[]; unit: string }
  | { kind: "times" }
  | { kind: "value"; family: Family };

// Units as they are written, to their family and (for time) their seconds.
const UNITS: Record<string, [Family, number]> = {};
function units(family: Family, words: string, factor = 1) {
  for (const w of words.split(" ")) UNITS[w] = [family, factor];
}
units("time", "second seconds sec secs", 1);
units("time", "minute minutes min mins", 60);
units("time", "hour hours hr hrs", 3600);
units("time", "day days", 86_400);
units("time", "week weeks", 604_800);
units("temperature", "degree degrees celsius fahrenheit");
units(
  "length",
  "millimetre millimetres millimeter millimeters mm centimetre centimetres centimeter centimeters cm metre metres meter meters km kilometre kilometres kilometer kilometers inch inches foot feet mile miles",
);
units(
  "weight",
  "gram grams kilogram kilograms kilo kilos kg tonne tonnes ton tons pound pounds lb lbs",
);

/** Seconds in one of a unit of time ("minutes" → 60), or undefined for any other unit. */
export function secondsPerUnit(unit: string): number | undefined {
  const known = UNITS[unit.trim().toLowerCase()];
  return known?.[0] === "time" ? known[1] : undefined;
}

const ASKS: [RegExp, StatedAsk][] = [
  [/ (how many times|how often) /, { kind: "times" }],
  [/ (how long|for how long|how much time|duration of) /, { kind: "value", family: "time" }],
  [/ (what temperature|how hot|how cold|how warm) /, { kind: "value", family: "temperature" }],
  [
    / (what size|how big|how far|what distance|how tall|how high|how wide|how deep|what length|how long is) /,
    { kind: "value", family: "length" },
  ],
  [/ (how heavy|what weight|how much does|weigh) /, { kind: "value", family: "weight" }],
  [/ (how much) /, { kind: "value", family: "any" }],
];

/** The stated quantity a question asks for, from its description's words. */
export function statedAsk(description: string): StatedAsk | null {
  const tokens = tokenize(description);
  const text = ` ${tokens.join(" ")} `;
  for (const [pattern, ask] of ASKS) if (pattern.test(text)) return ask;
  const at = tokens.findIndex(
    (t, i) =>
      (t === "many" && tokens[i - 1] === "how") || (t === "of" && tokens[i - 1] === "number"),
  );
  if (at < 0) return null;
  const nouns: string[] = [];
  for (const t of tokens.slice(at + 1)) {
    if (isStopword(t)) break;
    nouns.push(t);
  }
  const first = nouns[0];
  return first === undefined ? null : { kind: "count", nouns, unit: first };
}

/** A sentence's words for reading numbers: digits keep their decimal point and separators. */
function wordsOf(text: string): string[] {
  return (
    text
      .normalize("NFKC")
      .toLowerCase()
      .match(/\d+(?:[.,]\d+)*|[\p{L}\p{M}]+/gu) ?? []
  ).map((w) => w);
}

/** One value a sentence states: in seconds for time, else as written with its unit word. */
export interface Stated {
  value: number;
  unit: string;
}

/** Every quantity of the family a sentence states ("ten minutes" → 600 s, "90 degrees"). */
export function statedValues(text: string, family: Family): Stated[] {
  const words = wordsOf(text);
  const out: Stated[] = [];
  for (let i = 0; i < words.length; i++) {
    const number = readNumber(words, i);
    if (number === null) continue;
    const unit = words[i + number.length] ?? "";
    const known = UNITS[unit];
    if (known !== undefined && (family === "any" || known[0] === family)) {
      out.push(
        known[0] === "time"
          ? { value: number.value * known[1], unit: "seconds" }
          : { value: number.value, unit: known[0] === "temperature" ? "degrees" : unit },
      );
    }
    i += number.length - 1;
  }
  return out;
}

const SINGULAR = new Set("a an one another single".split(" "));

/**
 * How many of the asked thing one sentence states: a number before it ("four pallets", "two
 * hundred cakes"), or one for a singular ("a pallet"); null when it names the thing in the
 * plural without a number ("pallets were loaded").
 */
export function statedCount(text: string, nouns: string[]): number | null {
  const wanted = new Set(nouns.map(matchStem));
  const words = wordsOf(text);
  for (let i = 0; i < words.length; i++) {
    if (!wanted.has(matchStem(words[i] ?? ""))) continue;
    for (let back = 1; back <= 3 && i - back >= 0; back++) {
      const at = i - back;
      if (SINGULAR.has(words[at] ?? "")) return 1;
      let start = at;
      while (start > 0 && readNumber(words, start - 1) !== null) start--;
      const number = readNumber(words, start);
      if (number !== null && start + number.length === at + 1) return number.value;
    }
  }
  return null;
}

/**
 * Every number a text states, as written and, after a unit of time, in seconds ("ten
 * minutes" → 10 and 600; "twice" → 2): what a model's value may rest on.
 */
export function numbersStated(text: string): number[] {
  const words = wordsOf(text);
  const out: number[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? "";
    if (word in TIMES_WORDS) out.push(TIMES_WORDS[word] ?? 1);
    const number = readNumber(words, i);
    if (number === null) continue;
    out.push(number.value);
    const unit = UNITS[words[i + number.length] ?? ""];
    if (unit?.[0] === "time") out.push(number.value * unit[1]);
    i += number.length - 1;
  }
  return out;
}

/** How many times one sentence says a thing happened: "twice", "three times", else once. */
export function statedTimes(text: string): number {
  const words = wordsOf(text);
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? "";
    if (word in TIMES_WORDS) return TIMES_WORDS[word] ?? 1;
    const number = readNumber(words, i);
    if (number !== null && words[i + number.length] === "times") return number.value;
  }
  return 1;
}
