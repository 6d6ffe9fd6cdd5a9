// Numbers as English writes them: digits ("90", "2.5", "1,200") and words ("four", "twenty
// five", "two hundred", "twice"). A closed class of the language, read for stated quantities.

const UNITS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  dozen: 12,
};
const TENS: Record<string, number> = {
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};
const SCALES: Record<string, number> = { hundred: 100, thousand: 1000 };

/** Adverbs that are counts of times: "twice" is 2 times. */
export const TIMES_WORDS: Record<string, number> = { once: 1, twice: 2, thrice: 3 };

/** Whether a token starts or is part of a number ("four", "90", "hundred"). */
export function isNumberToken(token: string): boolean {
  return (
    /^\d+(?:[.,]\d+)*$/.test(token) ||
    token in UNITS ||
    token in TENS ||
    token in SCALES ||
    token in TIMES_WORDS
  );
}

/** A number read from `tokens` at `at`: its value and how many tokens it took, or null. */
export function readNumber(tokens: string[], at: number): { value: number; length: number } | null {
  const first = tokens[at];
  if (first === undefined) return null;
  if (/^\d+(?:,\d{3})*(?:\.\d+)?$/.test(first)) {
    return { value: Number(first.replace(/,/g, "")), length: 1 };
  }
  let total = 0;
  let current = 0;
  let length = 0;
  for (let i = at; i < tokens.length; i++) {
    const t = tokens[i] ?? "";
    if (t in UNITS) current += UNITS[t] ?? 0;
    else if (t in TENS) current += TENS[t] ?? 0;
    else if (t in SCALES) current = Math.max(current, 1) * (SCALES[t] ?? 1);
    else if (t === "and" && length > 0 && (tokens[i + 1] ?? "") in { ...UNITS, ...TENS }) continue;
    else break;
    length = i - at + 1;
    if (t === "thousand") {
      total += current;
      current = 0;
    }
  }
  return length === 0 ? null : { value: total + current, length };
}
