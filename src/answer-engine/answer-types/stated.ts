import type { AnswerItem } from "../../domain/answers";
import { type AnswerContext, plural, reasonSentence } from "../context";
import { isComplete } from "../inspection";
import type { AnswerDraft } from "../payload";
import { type StatedAsk, statedAsk, statedCount, statedTimes, statedValues } from "../quantities";
import { type Decision, incompleteReason, OPPOSING_REASONS } from "../states";
import { type Occurrence, occurrencesOf } from "./occurrences";
import { attribute, videoDecisions, videoLabel } from "./shared";

/** What the supporting sentences state: one value, or why there is none to give. */
type Reading =
  | { value: number; unit: string; summed: boolean }
  | { reason: "quantity_not_stated" | "conflicting_evidence" };

/** The stated answer of the occurrences: one distinct value, a sum of singulars, or a reason. */
function read(ask: StatedAsk, occurrences: Occurrence[]): Reading {
  if (ask.kind === "value") {
    const values = occurrences.flatMap((o) => statedValues(o.text, ask.family));
    const distinct = [...new Map(values.map((v) => [`${v.value} ${v.unit}`, v])).values()];
    const [only] = distinct;
    if (only === undefined) return { reason: "quantity_not_stated" };
    if (distinct.length > 1) return { reason: "conflicting_evidence" };
    return { ...only, summed: false };
  }
  const counts = occurrences.map((o) =>
    ask.kind === "times" ? statedTimes(o.text) : statedCount(o.text, ask.nouns),
  );
  const unit = ask.kind === "times" ? "times" : ask.unit;
  if (counts.some((c) => c === null)) return { reason: "quantity_not_stated" };
  const known = counts.filter((c): c is number => c !== null);
  if (known.length === 1) return { value: known[0] ?? 0, unit, summed: false };
  // Several sentences each stating one are several events; several stating more than one may
  // restate the same thing, which words cannot tell.
  if (known.every((c) => c === 1)) return { value: known.length, unit, summed: true };
  return { reason: "quantity_not_stated" };
}

/**
 * A measurement of a quantity the evidence states ("Four pallets were loaded" for "How many
 * pallets were loaded?", "The dishwasher ran for ten minutes" for "How long did it run?"),
 * read from the supporting sentences; null when the question asks for no stated quantity, or
 * nothing supports it (the caller then decides from the videos). A count needs every video
 * read completely (else it is a lower bound); a single stated value does not.
 */
export function answerStated(ctx: AnswerContext): AnswerDraft | null {
  if (ctx.probes[0]?.mode === "mention") return null;
  const ask = statedAsk(ctx.request.spec.description ?? "");
  if (ask === null) return null;
  const { decisions } = videoDecisions(ctx);
  const occurrences = occurrencesOf(ctx.matches);
  const opposed = decisions.find((d) => d.reason !== undefined && OPPOSING_REASONS.has(d.reason));
  if (opposed !== undefined || occurrences.length === 0) return null;
  const reading = read(ask, occurrences);
  const videos = ctx.inspection.videos;
  const incomplete = videos.filter((v) => !isComplete(v));
  const counted = ask.kind !== "value";
  let decision: Decision = { state: "found" };
  if ("reason" in reading) decision = { state: "uncertain", reason: reading.reason };
  else if (counted && incomplete.length > 0) {
    const reason = incomplete.flatMap((v) => incompleteReason(v) ?? [])[0];
    decision = { state: "uncertain", reason: reason ?? "budget_exhausted" };
  }
  const value = "reason" in reading ? undefined : reading.value;
  const unit = "reason" in reading ? undefined : reading.unit;
  const lowerBound = decision.state === "uncertain" && value !== undefined;
  const items = videos.map((video, i): AnswerItem => {
    const own = occurrences.filter((o) => o.videoIndex === video.index);
    const state = own.length > 0 ? decision.state : (decisions[i]?.state ?? "not_checked");
    const shown = own.length > 0 && videos.length === 1 ? value : undefined;
    return {
      item_id: video.video.id,
      label: videoLabel(video),
      result_state: state,
      ...(shown === undefined ? {} : { value: shown }),
      attributes: [
        attribute("occurrences", "Supporting sentences", own.length, "occurrences"),
        ...(lowerBound && shown !== undefined ? [attribute("at_least", "Lower bound", true)] : []),
      ],
      evidence: own.flatMap((o) => o.evidence),
    };
  });
  const said = value === undefined ? "" : `${value} ${unit}`;
  const summary =
    decision.state === "found"
      ? `${said}, as stated in ${plural(occurrences.length, "sentence")} of ${plural(videos.length, "video")}.`
      : `${lowerBound ? `At least ${said}. ` : ""}${reasonSentence(ctx, decision)}`;
  return {
    decision,
    summary,
    ...(value === undefined ? {} : { value }),
    ...(unit === undefined ? {} : { unit }),
    items,
    contributing: occurrences.flatMap((o) => o.evidence),
    eventCount: occurrences.length,
  };
}
