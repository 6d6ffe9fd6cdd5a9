import type { AnswerItem, ReasonCode } from "../../domain/answers";
import { type AnswerContext, clock, plural, reasonSentence } from "../context";
import { isComplete } from "../inspection";
import type { AnswerDraft } from "../payload";
import { aggregateAny, type Decision, incompleteReason, OPPOSING_REASONS } from "../states";
import {
  METRIC_LABELS,
  METRIC_UNITS,
  type Metric,
  metricOf,
  metricValue,
  zeroWhenAbsent,
} from "./metrics";
import { type Occurrence, occurrencesOf } from "./occurrences";
import { attribute, inVideo, refsOf, videoDecisions, videoLabel } from "./shared";
import { answerStated } from "./stated";

const REASON_ORDER: ReasonCode[] = [
  "budget_exhausted",
  "speech_not_transcribed",
  "required_evidence_not_extracted",
  "partial_coverage",
  "language_mismatch",
];

function describe(metric: Metric, value: number, count: number): string {
  if (metric === "count") return plural(value, "occurrence");
  if (metric === "duration") return `${value} seconds over ${plural(count, "occurrence")}`;
  return `${metric === "first_time" ? "first" : "last"} at ${clock(value)} (${value} s)`;
}

/** A measurement's value over `occurrences` for a known state (lower bound when partial). */
function valueFor(metric: Metric, occurrences: Occurrence[], state: string, partial: boolean) {
  if (state === "found") return metricValue(metric, occurrences);
  if (state === "not_found" && zeroWhenAbsent(metric)) return 0;
  if (partial && occurrences.length > 0 && zeroWhenAbsent(metric)) {
    return metricValue(metric, occurrences);
  }
  return undefined;
}

/**
 * A quantity the supporting sentences state (stated.ts), else one number from the supporting
 * occurrences (count, covered seconds, first or last time).
 * Found only when every video was read completely with its evidence extracted; with
 * occurrences but gaps it is uncertain and a count or duration is a lower bound; negating
 * matches make it uncertain with no value.
 */
export function answerMeasurement(ctx: AnswerContext): AnswerDraft {
  const stated = answerStated(ctx);
  if (stated !== null) return stated;
  const metric = metricOf(ctx.request.spec);
  const unit = METRIC_UNITS[metric];
  const { decisions } = videoDecisions(ctx);
  const occurrences = occurrencesOf(ctx.matches);
  const videos = ctx.inspection.videos;
  const incomplete = videos.filter((v) => !isComplete(v));

  let decision: Decision;
  const opposed = decisions.find((d) => d.reason !== undefined && OPPOSING_REASONS.has(d.reason));
  if (opposed !== undefined) {
    decision = { state: "uncertain", reason: opposed.reason ?? "conflicting_evidence" };
  } else if (occurrences.length > 0 && incomplete.length === 0) {
    decision = { state: "found" };
  } else if (occurrences.length > 0) {
    const reasons = incomplete.flatMap((v) => incompleteReason(v) ?? []);
    const reason = REASON_ORDER.find((r) => reasons.includes(r)) ?? "budget_exhausted";
    decision = { state: "uncertain", reason };
  } else {
    decision = aggregateAny(decisions);
  }
  const partial =
    !(decision.reason !== undefined && OPPOSING_REASONS.has(decision.reason)) &&
    incomplete.length > 0;

  const items = videos.map((video, i): AnswerItem => {
    const own = occurrences.filter((o) => o.videoIndex === video.index);
    let state = decisions[i]?.state ?? "not_checked";
    if (state === "found" && !isComplete(video)) state = "uncertain";
    const value = valueFor(metric, own, state, !isComplete(video));
    const attributes = [
      attribute("occurrences", "Occurrences", own.length, "occurrences"),
      // A count is already the occurrences attribute.
      ...(value === undefined || metric === "count"
        ? []
        : [attribute(metric, METRIC_LABELS[metric], value, unit)]),
      ...(state === "uncertain" && value !== undefined
        ? [attribute("at_least", "Lower bound", true)]
        : []),
    ];
    const evidence =
      state === "uncertain" && own.length === 0
        ? refsOf(inVideo(ctx.matches, video))
        : own.flatMap((o) => o.evidence);
    return {
      item_id: video.video.id,
      label: videoLabel(video),
      result_state: state,
      ...(value === undefined ? {} : { value }),
      attributes,
      evidence,
    };
  });

  const value = valueFor(metric, occurrences, decision.state, partial);
  const said = value === undefined ? "" : describe(metric, value, occurrences.length);
  const summary =
    decision.state === "found"
      ? `${said.charAt(0).toUpperCase()}${said.slice(1)} in ${plural(videos.length, "video")}.`
      : decision.state === "not_found"
        ? `${reasonSentence(ctx, decision)}${value === undefined ? "" : ` Value: ${value} ${unit}.`}`
        : `${value === undefined ? "" : `At least ${said}. `}${reasonSentence(ctx, decision)}`;
  const contributing =
    decision.state === "found" ||
    (decision.state === "uncertain" && occurrences.length > 0 && partial)
      ? occurrences.flatMap((o) => o.evidence)
      : decision.state === "uncertain"
        ? refsOf(ctx.matches)
        : [];
  return {
    decision,
    summary,
    ...(value === undefined ? {} : { value }),
    unit,
    items,
    contributing,
    eventCount: occurrences.length,
  };
}
