import type { ResultState } from "../../domain/answers";
import type { PartialCoverage } from "./coverage";
import { type RawValue, rawText } from "./format";
import { lookup, PASS_WORDS, type ReportStrings } from "./strings";

/** What turns raw values into displayed text: the language's strings and the block's mapping. */
export interface DisplayContext {
  strings: ReportStrings;
  mapping: Record<string, string>;
  /** Set for an answer that did not read every source whole: it is then never a pass. */
  partial?: PartialCoverage | undefined;
}

function mapped(ctx: DisplayContext, raw: string): string | undefined {
  const display = lookup(ctx.mapping, raw);
  return typeof display === "string" ? display : undefined;
}

/** What a check that may not be shown as a pass says instead of its yes/no value. */
function notPassText(state: ResultState, value: RawValue, ctx: DisplayContext): string {
  if (state === "found" && value === false) return ctx.strings.fail;
  if (state === "found" && ctx.partial !== undefined) return ctx.strings.partialPass(ctx.partial);
  if (state === "found") return ctx.strings.states.found;
  return state === "uncertain" ? ctx.strings.uncertainVerdict : ctx.strings.states[state];
}

/**
 * The last word on every displayed value: text reading as a pass survives only on a `found`
 * check whose value is not `false` (for a verdict: is `true`) and that read every source whole,
 * whatever the mapping or the engine's strings say.
 */
function guard(
  display: string,
  state: ResultState,
  value: RawValue,
  ctx: DisplayContext,
  verdictLike = false,
): string {
  const canPass =
    state === "found" &&
    (verdictLike ? value === true : value !== false) &&
    ctx.partial === undefined;
  if (canPass || !PASS_WORDS.has(display.trim().toLowerCase())) return display;
  return notPassText(state, value, ctx);
}

/**
 * A result state in words; the mapping may rename `found` and `not_found`, never the others.
 * `value` is the checked value, so a `found` + `false` state (or, for a verdict, anything but
 * `true`) cannot be renamed to a pass.
 */
export function stateText(
  state: ResultState,
  ctx: DisplayContext,
  value?: RawValue,
  verdictLike = false,
): string {
  if (state === "found" || state === "not_found") {
    const display = mapped(ctx, state);
    if (display !== undefined) return guard(display, state, value, ctx, verdictLike);
  }
  return ctx.strings.states[state];
}

/**
 * A displayed value of a check in `state`. A yes is shown only on a `found` check and a no
 * only on a `found` or `not_found` one; otherwise the check's state stands in its place (an
 * uncertain yes is not a yes). A number that is a lower bound reads "at least …".
 */
export function valueText(
  value: RawValue,
  unit: string | undefined,
  state: ResultState,
  verdictLike: boolean,
  ctx: DisplayContext,
  lowerBound = false,
): string | null {
  if (value === undefined) return null;
  if (typeof value === "boolean") {
    // A yes needs `found`; a no needs a decided state (`found` or `not_found`).
    const decided = state === "found" || (state === "not_found" && !value);
    if (!decided) return notPassText(state, value, ctx);
    // A pass over part of the sources is no pass, whatever the mapping calls one.
    if (verdictLike && value && ctx.partial !== undefined) return notPassText(state, value, ctx);
    const word = verdictLike
      ? value
        ? ctx.strings.pass
        : ctx.strings.fail
      : value
        ? ctx.strings.yes
        : ctx.strings.no;
    return guard(mapped(ctx, String(value)) ?? word, state, value, ctx, verdictLike);
  }
  const raw = rawText(value);
  if (raw === null) return null;
  const display = mapped(ctx, raw) ?? (unit ? `${raw} ${unit}` : raw);
  const bounded = lowerBound && typeof value === "number" ? ctx.strings.atLeast(display) : display;
  return guard(bounded, state, value, ctx, verdictLike);
}

/**
 * A verdict's headline: Pass only when `found` and `true` over every source read whole (over
 * part of them it says how much was found and not checked); Fail when `false` and `found` or
 * `not_found`; otherwise the state in words (uncertain in its "not a pass" form).
 */
export function verdictText(state: ResultState, value: RawValue, ctx: DisplayContext): string {
  if (typeof value === "boolean" && (state === "found" || state === "not_found")) {
    return valueText(value, undefined, state, true, ctx) ?? ctx.strings.states[state];
  }
  if (state === "uncertain") return ctx.strings.uncertainVerdict;
  return stateText(state, ctx, value, true);
}

/**
 * The raw value a JSON report may carry: none where showing it could read as a pass (`partial`:
 * a verdict's `true` on part of the sources).
 */
export function publicValue(
  value: RawValue,
  state: ResultState,
  partial = false,
): string | number | boolean | null {
  if (value === undefined) return null;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "boolean") {
    if (value && partial) return null;
    return state === "found" || (state === "not_found" && !value) ? value : null;
  }
  const couldPass = state === "found" && !partial;
  return !couldPass && PASS_WORDS.has(value.trim().toLowerCase()) ? null : value;
}
