import { z } from "zod";
import { metricOf } from "../../answer-engine/answer-types/metrics";
import { attribute } from "../../answer-engine/answer-types/shared";
import { type AnswerContext, plural, reasonSentence } from "../../answer-engine/context";
import { distinctRefs } from "../../answer-engine/evidence-ids";
import { isComplete } from "../../answer-engine/inspection";
import type { AnswerDraft } from "../../answer-engine/payload";
import { probeStems, specMode } from "../../answer-engine/probe";
import { numbersStated } from "../../answer-engine/quantities";
import { isDirective } from "../../answer-engine/statement-mode";
import { type Decision, incompleteReason } from "../../answer-engine/states";
import { type AnswerItem, RESULT_STATES, type ReasonCode } from "../../domain/answers";
import type { EvidenceRef } from "../../domain/evidence";
import { MODEL_REASONS, type SentSegment } from "./workers-ai-prompt";

const ValueSchema = z.union([z.string(), z.number(), z.boolean()]).nullish();

const ModelItemSchema = z.object({
  label: z.string().trim().min(1).max(500),
  result_state: z.enum(RESULT_STATES),
  value: ValueSchema,
  evidence_ids: z.array(z.string()).default([]),
});

/** What the model must return (the JSON schema of the request, validated). */
export const ModelAnswerSchema = z.object({
  result_state: z.enum(RESULT_STATES),
  reason_code: z.enum(MODEL_REASONS).nullish(),
  summary: z.string().max(4000),
  value: ValueSchema,
  unit: z.string().max(40).nullish(),
  evidence_ids: z.array(z.string()),
  quotes: z.array(z.string().max(1000)).max(20).default([]),
  items: z.array(ModelItemSchema).max(100).default([]),
});
/** A validated model answer. */
export type ModelAnswer = z.infer<typeof ModelAnswerSchema>;

/** The model's JSON: `response` as an object (JSON mode) or a string, code fences tolerated. */
export function parseModelOutput(output: unknown): ModelAnswer | null {
  let body: unknown =
    typeof output === "object" && output !== null && "response" in output
      ? (output as { response: unknown }).response
      : output;
  if (typeof body === "string") {
    const text = body
      .trim()
      .replace(/^```(?:json)?\s*/i, "")
      .replace(/\s*```$/, "");
    try {
      body = JSON.parse(text);
    } catch {
      return null;
    }
  }
  const parsed = ModelAnswerSchema.safeParse(body);
  return parsed.success ? parsed.data : null;
}

/** Token counts the model reported, when it did. */
export function reportedUsage(output: unknown): { input?: number; output?: number } {
  const usage =
    typeof output === "object" && output !== null && "usage" in output
      ? (output as { usage: unknown }).usage
      : undefined;
  const parsed = z
    .object({
      prompt_tokens: z.number().int().min(0).optional(),
      completion_tokens: z.number().int().min(0).optional(),
    })
    .safeParse(usage);
  if (!parsed.success) return {};
  return { input: parsed.data.prompt_tokens, output: parsed.data.completion_tokens };
}

/** What the engine knows about completeness when it reads the model's answer. */
export interface SendFacts {
  sent: SentSegment[];
  /** Segments with accepted evidence that were read but not sent, and why. */
  unsent: "none" | "budget" | "context";
}

/**
 * Turns a validated model answer into a draft: cited ids not among the segments sent are
 * dropped; a found (answer or item) left with no valid citation becomes uncertain; a
 * not_found is only kept when every video was read completely with its evidence extracted and
 * every candidate segment was sent (otherwise not_checked). States are never upgraded.
 */
export function draftFromModel(
  ctx: AnswerContext,
  model: ModelAnswer,
  facts: SendFacts,
): AnswerDraft {
  const known = new Map(facts.sent.flatMap((s) => s.refs.map((r) => [r.evidence_id, r] as const)));
  let dropped = 0;
  const keep = (ids: string[]): EvidenceRef[] =>
    distinctRefs(
      ids.flatMap((id) => {
        const ref = known.get(id);
        if (ref === undefined) dropped++;
        return ref === undefined ? [] : [ref];
      }),
    );
  const isVerdict = ctx.request.spec.answer_type === "verdict";
  const items = model.items.map((item, i): AnswerItem => {
    const evidence = keep(item.evidence_ids);
    // A found item needs a citation; a verdict's found item with the value false is no pass.
    const unbacked = evidence.length === 0 || (isVerdict && item.value === false);
    const state = item.result_state === "found" && unbacked ? "uncertain" : item.result_state;
    const value = settledValue(state, item.value, isVerdict);
    // Times come from what the item cites, never from the model.
    const times =
      evidence.length > 0
        ? [
            attribute(
              "start_time",
              "Start",
              Math.min(...evidence.map((r) => r.start_time)),
              "seconds",
            ),
            attribute("end_time", "End", Math.max(...evidence.map((r) => r.end_time)), "seconds"),
          ]
        : [];
    return {
      item_id: `item_${i + 1}`,
      label: item.label,
      result_state: state,
      ...(value === undefined ? {} : { value }),
      attributes: times,
      evidence,
    };
  });
  const found = items.filter((i) => i.result_state === "found");
  const cited = distinctRefs([...keep(model.evidence_ids), ...found.flatMap((i) => i.evidence)]);

  let decision: Decision = { state: model.result_state, reason: modelReason(model) };
  let summary = model.summary.trim().slice(0, 500);
  if (isVerdict && decision.state === "found" && model.value === false) {
    // "found" with the value false says no and yes at once: never stored as a pass.
    decision = { state: "uncertain", reason: "unbacked_value" };
    summary = `${summary} The model answered found with the value false, so it is not reported as found.`;
  }
  if (decision.state === "found" && cited.length === 0) {
    decision = {
      state: "uncertain",
      reason: dropped > 0 ? "evidence_not_in_index" : "no_cited_evidence",
    };
    summary =
      "The model's answer cited no evidence that exists in the index, so it is not reported as found.";
  } else if (decision.state === "not_found") {
    const gap = absenceGap(ctx, facts);
    if (gap !== undefined) {
      decision = { state: "not_checked", reason: gap };
      summary = reasonSentence(ctx, decision);
    }
  }
  if (decision.state === "found" && !quoted(model.quotes, cited)) {
    decision = { state: "uncertain", reason: "unsupported_citation" };
    summary = `${summary} No quote of the answer's support appears in the evidence it cites.`;
  }
  if (decision.state === "found" && !valueBacked(ctx, model.value, cited, found.length)) {
    decision = { state: "uncertain", reason: "unbacked_value" };
    summary = `${summary} The value ${String(model.value)} is not backed by what the answer cites.`;
  }
  if (decision.state === "found" && onlyDirectives(ctx, cited)) {
    decision = { state: "uncertain", reason: "instruction_not_observation" };
    summary = `${summary} Every cited sentence states a rule, request or intent, not that it happened.`;
  }
  if (decision.state === "found") decision = { state: "found" };
  if (dropped > 0)
    summary = `${summary} ${plural(dropped, "cited evidence id")} not in the index dropped.`;

  const value = settledValue(decision.state, model.value, isVerdict);
  return {
    decision,
    summary,
    ...(value === undefined ? {} : { value }),
    ...(model.unit ? { unit: model.unit } : {}),
    items,
    contributing:
      decision.state === "found"
        ? cited
        : decision.state === "uncertain"
          ? distinctRefs([...cited, ...items.flatMap((i) => i.evidence)])
          : [],
    eventCount: found.length > 0 ? found.length : new Set(cited.map((r) => r.segment_id)).size,
  };
}

/**
 * The local rule, applied to a model's `found`: for a question about what happened, citations
 * that only state rules, requests or intents ("Operators must wear vests") do not support it.
 */
function onlyDirectives(ctx: AnswerContext, cited: EvidenceRef[]): boolean {
  const { spec, instructions, mode } = ctx.request;
  if (specMode(spec, instructions, mode) !== "observation" || cited.length === 0) return false;
  const stems = new Set(ctx.probes.flatMap((p) => [...probeStems(p)]));
  return cited.every((r) =>
    r.text
      .split(/(?<=[.!?;])\s+/u)
      .filter((sentence) => sentence.trim() !== "")
      .every((sentence) => isDirective(sentence, stems)),
  );
}

function normalised(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/**
 * Whether some quote of the model's support stands in a cited span, word for word: a citation
 * of a real span that says something else does not back a found.
 */
function quoted(quotes: string[], cited: EvidenceRef[]): boolean {
  const texts = cited.map((r) => ` ${normalised(r.text)} `);
  return quotes
    .map(normalised)
    .filter((q) => q !== "")
    .some((q) => texts.some((t) => t.includes(` ${q} `)));
}

/**
 * Whether a model's number is backed by its valid citations: a count (occurrences, values,
 * events, segments) no larger than what it cites; a first or last time at a cited span's start
 * (within a second); a duration no longer than the cited spans' extent. Anything else (text,
 * booleans, no value) passes.
 */
function valueBacked(
  ctx: AnswerContext,
  value: unknown,
  cited: EvidenceRef[],
  foundItems: number,
): boolean {
  if (typeof value !== "number") return true;
  const type = ctx.request.spec.answer_type;
  if (type === "enumeration" || type === "timeline" || type === "retrieval") {
    return value <= Math.max(cited.length, foundItems);
  }
  if (type !== "measurement") return true;
  // A number a cited span states ("four pallets", "ten minutes" as 10 or 600) is backed.
  if (cited.some((r) => numbersStated(r.text).some((n) => Math.abs(n - value) < 1e-9))) return true;
  const metric = metricOf(ctx.request.spec);
  if (metric === "count") return value <= Math.max(cited.length, foundItems);
  if (metric === "duration") {
    const extent = cited.reduce((sum, r) => sum + Math.max(0, r.end_time - r.start_time), 0);
    const spread =
      cited.length === 0
        ? 0
        : Math.max(...cited.map((r) => r.end_time)) - Math.min(...cited.map((r) => r.start_time));
    return value <= Math.max(extent, spread) + 1;
  }
  return cited.some((r) => Math.abs(r.start_time - value) <= 1);
}

function modelReason(model: ModelAnswer): ReasonCode | undefined {
  if (model.result_state === "found") return undefined;
  if (model.reason_code) return model.reason_code;
  if (model.result_state === "not_found") return "no_supporting_evidence";
  if (model.result_state === "not_checked") return "required_evidence_not_extracted";
  return "insufficient_evidence";
}

/** Why an absence cannot be claimed: something was not extracted, read or sent. */
function absenceGap(ctx: AnswerContext, facts: SendFacts): ReasonCode | undefined {
  const reasons = ctx.inspection.videos
    .filter((v) => !isComplete(v))
    .flatMap((v) => incompleteReason(v) ?? []);
  for (const reason of [
    "budget_exhausted",
    "required_evidence_not_extracted",
    "partial_coverage",
    "language_mismatch",
  ] as const) {
    if (reasons.includes(reason)) return reason;
  }
  if (facts.unsent === "budget") return "budget_exhausted";
  if (facts.unsent === "context") return "context_limit";
  return undefined;
}

/** A verdict's value follows its state; other values survive only a found or not_found. */
function settledValue(state: string, value: unknown, isVerdict: boolean) {
  if (isVerdict) return state === "found" ? true : state === "not_found" ? false : undefined;
  if (state !== "found" && state !== "not_found") return undefined;
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean"
    ? value
    : undefined;
}
