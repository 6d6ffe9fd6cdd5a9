import type { ModelAnswer } from "../../src/ports/answer-engine/workers-ai-output";
import type { PromptSpan } from "./answer-prompt";
import { foundCiting, metricOfSituation, pick, related, type Situation } from "./answer-situation";
import { isInstruction, isNegated, negates, negations, sentencesOf, standsIn } from "./statements";

/**
 * The errors the adversarial answer model makes, in the order they are tried: those that
 * apply to few questions first, so each gets its chance before the ones that apply to almost
 * any (docs/simulators.md lists them with their rates).
 */
export const ANSWER_ERROR_KINDS = [
  "prohibition_met_by_breach",
  "negated_support",
  "instruction_as_event",
  "skipped_items",
  "wrong_number",
  "found_false",
  "unlooked_negative",
  "shifted_time",
  "invented_quote",
  "unrelated_span",
] as const;
/** One kind of error. */
export type AnswerErrorKind = (typeof ANSWER_ERROR_KINDS)[number];

type Make = (s: Situation) => ModelAnswer | null;

const found = (s: Situation) => s.honest.answer.result_state === "found";
const quoted = (text: string) => `Stated in the evidence: "${text}"`;

/** A sentence that negates what was asked, cited and quoted as its support. */
const negatedSupport: Make = (s) => {
  if (s.type !== "verdict" || s.negatedQuestion || s.mode === "mention" || found(s)) return null;
  // One negation: a double one ("No one was without a harness") may well say yes.
  const negating = related(
    s,
    (x) => negations(x.text) === 1 && (s.crossLanguage || negates(x.text, s.stems)),
  );
  const chosen = pick(s, "sentence", negating);
  return chosen
    ? foundCiting(s, [{ span: chosen.span, quote: chosen.text }], quoted(chosen.text))
    : null;
};

/** A rule, request or instruction reported as what happened. */
const instructionAsEvent: Make = (s) => {
  if (s.type !== "verdict" || s.mode !== "observation" || s.negatedQuestion || found(s))
    return null;
  const candidates = related(
    s,
    (x) => !isNegated(x.text) && isInstruction(x.text, x.span.language, s.stems),
  );
  const chosen = pick(s, "sentence", candidates);
  return chosen
    ? foundCiting(s, [{ span: chosen.span, quote: chosen.text }], quoted(chosen.text))
    : null;
};

/** A prohibition judged met by the sentence that reports it broken. */
const prohibitionMetByBreach: Make = (s) => {
  if (s.type !== "verdict" || s.prohibition === null || found(s)) return null;
  const fewer = negations(s.prohibition) - 1;
  const breaches = related(
    s,
    (x) =>
      x.shared > 0 &&
      negations(x.text) === fewer &&
      !isInstruction(x.text, x.span.language, s.stems),
  );
  const chosen = pick(s, "sentence", breaches);
  return chosen
    ? foundCiting(
        s,
        [{ span: chosen.span, quote: chosen.text }],
        `The rule is kept: "${chosen.text}"`,
      )
    : null;
};

/** An enumeration or timeline with its last items left out. */
const skippedItems: Make = (s) => {
  const honest = s.honest.answer;
  if ((s.type !== "enumeration" && s.type !== "timeline") || !found(s)) return null;
  const foundItems = honest.items.filter((i) => i.result_state === "found");
  if (foundItems.length < 2) return null;
  const dropped = new Set(
    foundItems.slice(foundItems.length - 1 - s.choose("count", Math.floor(foundItems.length / 2))),
  );
  const items = honest.items.filter((i) => !dropped.has(i));
  const ids = new Set(
    items.filter((i) => i.result_state === "found").flatMap((i) => i.evidence_ids),
  );
  const texts = s.spans.filter((span) => ids.has(span.id)).map((span) => span.text);
  const kept = items.filter((i) => i.result_state === "found").length;
  return {
    ...honest,
    summary: `${kept} found: ${items.map((i) => i.label).join("; ")}`.slice(0, 4000),
    ...(typeof honest.value === "number" ? { value: kept } : {}),
    evidence_ids: honest.evidence_ids.filter((id) => ids.has(id)),
    quotes: honest.quotes.filter((q) => texts.some((t) => standsIn(q, t))),
    items,
  };
};

const OTHER_UNIT: Record<string, string> = {
  seconds: "minutes",
  minutes: "seconds",
  hours: "minutes",
};

/**
 * A quantity found with a number one off, doubled, or in the wrong unit (a first or last time
 * is shifted_time's).
 */
const wrongNumber: Make = (s) => {
  const honest = s.honest.answer;
  if (s.type !== "measurement" || !found(s) || typeof honest.value !== "number") return null;
  const metric = metricOfSituation(s);
  if (metric === "first_time" || metric === "last_time") return null;
  const v = honest.value;
  const unit = honest.unit ?? "";
  const variant = s.choose("variant", 4);
  const swapped = variant === 3 ? OTHER_UNIT[unit] : undefined;
  const value =
    swapped !== undefined
      ? v
      : variant === 1 && v > 1
        ? v - 1
        : variant === 2 && v !== 0
          ? v * 2
          : v + 1;
  const said = swapped ?? unit;
  return { ...honest, value, unit: said, summary: `${value} ${said}`.trim() };
};

/** A verdict found, with the value false. */
const foundFalse: Make = (s) =>
  s.type === "verdict" && found(s) ? { ...s.honest.answer, value: false } : null;

/** The span next in time (else before) to a cited one: same video and kind, not itself cited. */
function neighbour(
  s: Situation,
  cited: PromptSpan,
  taken: ReadonlySet<string>,
): PromptSpan | undefined {
  const others = s.spans.filter(
    (x) =>
      x.videoId === cited.videoId &&
      x.kind === cited.kind &&
      !taken.has(x.id) &&
      x.text !== cited.text,
  );
  const after = others.filter((x) => x.start > cited.start).sort((a, b) => a.start - b.start);
  const before = others.filter((x) => x.start < cited.start).sort((a, b) => b.start - a.start);
  return after[0] ?? before[0];
}

/** A found citing the spans beside the true ones (quotes kept), or a first or last time moved. */
const shiftedTime: Make = (s) => {
  const honest = s.honest.answer;
  if (!found(s) || honest.evidence_ids.length === 0) return null;
  const metric = s.type === "measurement" ? metricOfSituation(s) : null;
  if ((metric === "first_time" || metric === "last_time") && typeof honest.value === "number") {
    const by = (3 + s.choose("seconds", 4)) * (s.choose("sign", 2) === 0 ? 1 : -1);
    const value = Math.max(0, honest.value + (honest.value + by < 0 ? -by : by));
    return { ...honest, value, summary: `At ${value} seconds.` };
  }
  const taken = new Set(honest.evidence_ids);
  const moved = new Map<string, string>();
  for (const id of honest.evidence_ids) {
    const span = s.spans.find((x) => x.id === id);
    const next = span ? neighbour(s, span, taken) : undefined;
    if (next) moved.set(id, next.id);
  }
  // Every citation moves, so no true one is left to vouch for the answer.
  if (moved.size < taken.size) return null;
  const shift = (ids: string[]) => [...new Set(ids.map((id) => moved.get(id) ?? id))];
  return {
    ...honest,
    evidence_ids: shift(honest.evidence_ids),
    items: honest.items.map((i) => ({ ...i, evidence_ids: shift(i.evidence_ids) })),
  };
};

/** An absence claimed where the evidence sent supports the answer or does not span the videos. */
const unlookedNegative: Make = (s) => {
  const state = s.honest.answer.result_state;
  if (state !== "found" && state !== "not_checked") return null;
  const counted =
    s.type === "enumeration" ||
    s.type === "timeline" ||
    s.type === "retrieval" ||
    (s.type === "measurement" && metricOfSituation(s) === "count");
  return {
    result_state: "not_found",
    reason_code: "no_supporting_evidence",
    summary: "Nothing in the segments given supports it.",
    value: s.type === "verdict" ? false : counted ? 0 : null,
    evidence_ids: [],
    quotes: [],
    items: [],
  };
};

// Question words and auxiliaries a question opens with, English and German.
const QUESTION_OPENING =
  /^(?:how many times|how many|how much|how long|how often|when|what|which|who|where|wie viele|wie lange|wann|welche[rsmn]?|was|were|is|are|did|does|do|has|have|had|can|could|will|wurde|wurden|ist|sind|hat|haben|wird|werden)\s+/i;

/** Words a model might put in a quote: the question said as a statement. */
function invented(s: Situation, cited: string[]): string | null {
  const { question } = s.honest;
  const asked = (question.description || question.fields[0]?.label || question.answer_key).trim();
  let statement = asked.replace(/[?？.!]+$/u, "");
  for (let i = 0; i < 2; i++) statement = statement.replace(QUESTION_OPENING, "");
  const said = `${statement.charAt(0).toUpperCase()}${statement.slice(1)}`;
  // Said as written it may stand in the evidence; a model's embellishment then makes it false.
  for (const quote of [`${said}.`, `${said}, as stated.`]) {
    if (!cited.some((t) => standsIn(quote, t))) return quote;
  }
  return null;
}

/** A found citing a related span, quoting words that are not in it. */
const inventedQuote: Make = (s) => {
  const honest = s.honest.answer;
  if (found(s)) {
    const texts = s.spans.filter((x) => honest.evidence_ids.includes(x.id)).map((x) => x.text);
    const quote = invented(s, texts);
    return quote === null ? null : { ...honest, quotes: [quote] };
  }
  if (s.type !== "verdict") return null;
  const doubt = s.spans.filter((x) => honest.evidence_ids.includes(x.id));
  const span =
    doubt[0] ??
    pick(
      s,
      "sentence",
      related(s, () => true),
    )?.span;
  const quote = span ? invented(s, [span.text]) : null;
  return span && quote ? foundCiting(s, [{ span, quote }], quoted(quote)) : null;
};

/** A found citing a real span that shares no word with the question, quoting it. */
const unrelatedSpan: Make = (s) => {
  const honest = s.honest.answer;
  if (s.type !== "verdict" && !found(s)) return null;
  // A question no span shares a word with may be asked in another language: nothing is
  // known to be unrelated then.
  if (!s.sentences.some((x) => x.shared > 0)) return null;
  const unrelated = s.spans.filter(
    (x) =>
      !honest.evidence_ids.includes(x.id) &&
      s.sentences.every((y) => y.span !== x || y.shared === 0),
  );
  const span = pick(s, "span", unrelated);
  const sentence = span ? sentencesOf(span.text)[0] : undefined;
  return span && sentence ? foundCiting(s, [{ span, quote: sentence }], quoted(sentence)) : null;
};

/** How each kind is made from an honest answer, or null where it does not apply. */
export const MAKE_ERROR: Record<AnswerErrorKind, Make> = {
  prohibition_met_by_breach: prohibitionMetByBreach,
  negated_support: negatedSupport,
  instruction_as_event: instructionAsEvent,
  skipped_items: skippedItems,
  wrong_number: wrongNumber,
  found_false: foundFalse,
  unlooked_negative: unlookedNegative,
  shifted_time: shiftedTime,
  invented_quote: inventedQuote,
  unrelated_span: unrelatedSpan,
};
