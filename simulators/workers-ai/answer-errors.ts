import type { ModelAnswer } from "../../src/ports/answer-engine/workers-ai-output";
import { ANSWER_ERROR_KINDS, type AnswerErrorKind, MAKE_ERROR } from "./answer-error-kinds";
import type { PromptReading } from "./answer-prompt";
import { situationOf } from "./answer-situation";
import type { HonestReading } from "./honest-answer";

export { ANSWER_ERROR_KINDS, type AnswerErrorKind } from "./answer-error-kinds";

/** Chance of each kind where it applies (docs/simulators.md); tried in ANSWER_ERROR_KINDS order. */
export const DEFAULT_ERROR_RATES: Readonly<Record<AnswerErrorKind, number>> = {
  prohibition_met_by_breach: 1,
  negated_support: 0.8,
  instruction_as_event: 0.35,
  skipped_items: 1,
  wrong_number: 0.5,
  found_false: 0.4,
  unlooked_negative: 0.3,
  shifted_time: 0.45,
  invented_quote: 0.15,
  unrelated_span: 0.2,
};

/** How the simulated answer model answers: honestly, or erring as configured. */
export interface AnswerModelSettings {
  mode: "honest" | "adversarial";
  seed: number;
  rates: Readonly<Record<AnswerErrorKind, number>>;
}

/** The honest model (the default). */
export const HONEST_ANSWERS: AnswerModelSettings = {
  mode: "honest",
  seed: 1,
  rates: DEFAULT_ERROR_RATES,
};

/** One error the adversarial model made: what it was asked, what was true, what it claimed. */
export interface AnswerError {
  kind: AnswerErrorKind;
  /** The same for every call that makes this error again (a retried step). */
  fingerprint: string;
  seed: number;
  answer_key: string;
  answer_type: string;
  description: string;
  honest: { result_state: string; value: ModelAnswer["value"] | null };
  claimed: {
    result_state: string;
    value: ModelAnswer["value"] | null;
    unit: string | null;
    evidence_ids: string[];
    quotes: string[];
  };
}

/** cyrb53: a fast 53-bit string hash, so a choice depends on every character of its key. */
function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** A number in [0, 1) fixed by its key. */
function unit(key: string): number {
  return hash53(key) / 2 ** 53;
}

/**
 * What fixes a question's errors: the seed, the question, and the evidence it was sent, by
 * content (kind, times, text), so the same fixtures err alike whatever ids an upload gets.
 */
function questionKey(seed: number, honest: HonestReading, reading: PromptReading): string {
  const q = honest.question;
  const asked = JSON.stringify([
    q.answer_key,
    q.answer_type,
    q.description,
    q.fields,
    q.mode ?? null,
    q.accepted_evidence,
  ]);
  const sent = reading.spans
    .map((s) => `${s.kind}|${s.start}|${s.end}|${s.text}`)
    .sort()
    .join("\u0001");
  return `${seed}\u0000${asked}\u0000${sent}`;
}

/**
 * The adversarial model's answer: the honest one with at most one error, the first kind (in
 * ANSWER_ERROR_KINDS order) that applies and whose seeded roll falls under its rate. Every
 * choice is fixed by (seed, kind, question, evidence sent), so a retried call errs alike.
 */
export function withError(
  honest: HonestReading,
  reading: PromptReading,
  settings: AnswerModelSettings,
): { answer: ModelAnswer; error: AnswerError | null } {
  if (settings.mode === "honest") return { answer: honest.answer, error: null };
  const base = questionKey(settings.seed, honest, reading);
  for (const kind of ANSWER_ERROR_KINDS) {
    const rate = settings.rates[kind];
    if (rate <= 0 || unit(`${base}\u0000${kind}\u0000roll`) >= rate) continue;
    const choose = (salt: string, n: number) =>
      Math.min(n - 1, Math.floor(unit(`${base}\u0000${kind}\u0000${salt}`) * n));
    const claimed = MAKE_ERROR[kind](situationOf(honest, reading, choose));
    if (claimed === null) continue;
    const q = honest.question;
    return {
      answer: claimed,
      error: {
        kind,
        fingerprint: hash53(`${base}\u0000${kind}`).toString(16).padStart(14, "0"),
        seed: settings.seed,
        answer_key: q.answer_key,
        answer_type: q.answer_type,
        description: q.description,
        honest: { result_state: honest.answer.result_state, value: honest.answer.value ?? null },
        claimed: {
          result_state: claimed.result_state,
          value: claimed.value ?? null,
          unit: claimed.unit ?? null,
          evidence_ids: claimed.evidence_ids,
          quotes: claimed.quotes,
        },
      },
    };
  }
  return { answer: honest.answer, error: null };
}

/**
 * The answer model's settings from `SIMULATE_ANSWERS` (`honest` or `adversarial`),
 * `SIMULATE_ANSWERS_SEED` (an integer, default 1) and `SIMULATE_ANSWERS_RATES` (a factor on
 * every default rate, or `kind=rate` pairs replacing some); malformed values are refused.
 */
export function answerSettingsFrom(env: {
  SIMULATE_ANSWERS?: string | undefined;
  SIMULATE_ANSWERS_SEED?: string | undefined;
  SIMULATE_ANSWERS_RATES?: string | undefined;
}): AnswerModelSettings {
  const mode = env.SIMULATE_ANSWERS ?? "";
  if (mode !== "" && mode !== "honest" && mode !== "adversarial")
    throw new Error(`SIMULATE_ANSWERS must be "honest" or "adversarial", not ${mode}`);
  const rawSeed = env.SIMULATE_ANSWERS_SEED ?? "";
  const seed = rawSeed === "" ? 1 : Number(rawSeed);
  if (!Number.isSafeInteger(seed))
    throw new Error(`SIMULATE_ANSWERS_SEED must be an integer, not ${rawSeed}`);
  return {
    mode: mode === "adversarial" ? "adversarial" : "honest",
    seed,
    rates: ratesFrom(env.SIMULATE_ANSWERS_RATES ?? ""),
  };
}

function isKind(name: string): name is AnswerErrorKind {
  return ANSWER_ERROR_KINDS.some((kind) => kind === name);
}

function rate(raw: string, name: string): number {
  const value = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(value) || value < 0)
    throw new Error(`SIMULATE_ANSWERS_RATES: ${name} must be a number of at least 0, not ${raw}`);
  return value;
}

function ratesFrom(raw: string): Record<AnswerErrorKind, number> {
  const rates = { ...DEFAULT_ERROR_RATES };
  if (raw.trim() === "") return rates;
  if (!raw.includes("=")) {
    const factor = rate(raw, "the factor");
    for (const kind of ANSWER_ERROR_KINDS) rates[kind] = Math.min(1, rates[kind] * factor);
    return rates;
  }
  for (const pair of raw.split(",")) {
    const [name = "", value = ""] = pair.split("=").map((p) => p.trim());
    if (!isKind(name)) throw new Error(`SIMULATE_ANSWERS_RATES names no kind of error: ${name}`);
    rates[name] = Math.min(1, rate(value, name));
  }
  return rates;
}
