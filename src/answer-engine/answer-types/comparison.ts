import type { AnswerItem } from "../../domain/answers";
import { type AnswerContext, absenceOf, clock, plural, reasonSentence } from "../context";
import type { VideoInspection } from "../inspection";
import type { SegmentMatch } from "../matching";
import type { AnswerDraft } from "../payload";
import {
  aggregateAll,
  type Decision,
  decideScope,
  incompleteReason,
  type ScopeCheck,
} from "../states";
import { METRIC_LABELS, METRIC_UNITS, metricOf, metricValue, zeroWhenAbsent } from "./metrics";
import { occurrencesOf } from "./occurrences";
import { attribute, refsOf, stateEvidence, videoLabel } from "./shared";

function amount(value: number, unit: string): string {
  return unit === "occurrences" ? plural(value, "occurrence") : `${value} ${unit}`;
}

interface Scope {
  id: string;
  label: string;
  check: ScopeCheck;
  matches: SegmentMatch[];
  bounds?: [number, number];
  videoId: string;
}

/** One video: its first and second half (a segment belongs to the half its start is in). */
function halves(ctx: AnswerContext, v: VideoInspection): Scope[] {
  const end = v.video.duration > 0 ? v.video.duration : (v.segments.at(-1)?.end ?? 0);
  const middle = end / 2;
  const readIds = new Set(v.read.map((s) => s.id));
  const half = (
    id: string,
    name: string,
    lo: number,
    hi: number,
    inHalf: (t: number) => boolean,
  ) => {
    const segments = v.segments.filter((s) => inHalf(s.start));
    const fullyRead =
      segments.every((s) => readIds.has(s.id)) && (segments.length > 0 || v.fullyRead);
    return {
      id,
      label: `${name} (${clock(lo)}–${clock(hi)})`,
      check: { extracted: v.extracted, gap: v.gap, fullyRead },
      matches: ctx.matches.filter((m) => m.videoIndex === v.index && inHalf(m.segment.start)),
      bounds: [lo, hi] as [number, number],
      videoId: v.video.id,
    };
  };
  return [
    half("first_half", "First half", 0, middle, (t) => t < middle),
    half("second_half", "Second half", middle, end, (t) => t >= middle),
  ];
}

/** The scopes compared: the halves of a single video, or one scope per video. */
export function scopesOf(ctx: AnswerContext): Scope[] {
  const videos = ctx.inspection.videos;
  const only = videos[0];
  if (videos.length === 1 && only !== undefined) return halves(ctx, only);
  return videos.map((v) => ({
    id: v.video.id,
    label: videoLabel(v),
    check: v,
    matches: ctx.matches.filter((m) => m.videoIndex === v.index),
    videoId: v.video.id,
  }));
}

/**
 * The spec's metric (as for a measurement) per scope. Every side must be known: any side
 * unchecked → not_checked, any doubtful (or found but read in part) → uncertain, else found
 * when anything occurs. The value is the second side minus the first, with exactly two sides.
 */
export function answerComparison(ctx: AnswerContext): AnswerDraft {
  const metric = metricOf(ctx.request.spec);
  const unit = METRIC_UNITS[metric];
  const absence = absenceOf(ctx);
  const sides = scopesOf(ctx).map((scope) => {
    const occurrences = occurrencesOf(scope.matches);
    let decision: Decision = decideScope(scope.matches, scope.check, absence);
    const gap = incompleteReason(scope.check);
    if (decision.state === "found" && gap !== undefined)
      decision = { state: "uncertain", reason: gap };
    const value =
      decision.state === "found"
        ? metricValue(metric, occurrences)
        : decision.state === "not_found" && zeroWhenAbsent(metric)
          ? 0
          : undefined;
    const item: AnswerItem = {
      item_id: scope.id,
      label: scope.label,
      result_state: decision.state,
      ...(value === undefined ? {} : { value }),
      attributes: [
        attribute("occurrences", "Occurrences", occurrences.length, "occurrences"),
        // A count is already the occurrences attribute.
        ...(value === undefined || metric === "count"
          ? []
          : [attribute(metric, METRIC_LABELS[metric], value, unit)]),
        attribute("video_id", "Video", scope.videoId),
        ...(scope.bounds
          ? [
              attribute("scope_start", "Scope start", scope.bounds[0], "seconds"),
              attribute("scope_end", "Scope end", scope.bounds[1], "seconds"),
            ]
          : []),
      ],
      evidence:
        decision.state === "found"
          ? occurrences.flatMap((o) => o.evidence)
          : stateEvidence(decision.state, scope.matches),
    };
    return { item, decision, value, occurrences };
  });
  const decision = aggregateAll(sides.map((s) => s.decision));
  const [a, b] = sides;
  const known = decision.state === "found" || decision.state === "not_found";
  const difference =
    known && sides.length === 2 && a?.value !== undefined && b?.value !== undefined
      ? Math.round((b.value - a.value) * 1000) / 1000
      : undefined;
  const said = sides
    .map(
      (s) => `${s.item.label}: ${s.value === undefined ? s.decision.state : amount(s.value, unit)}`,
    )
    .join("; ");
  return {
    decision,
    summary:
      decision.state === "found"
        ? `${said}${difference === undefined ? "" : ` (change ${difference} ${unit})`}.`
        : `${said}. ${reasonSentence(ctx, decision)}`,
    ...(difference === undefined ? {} : { value: difference }),
    unit,
    items: sides.map((s) => s.item),
    contributing:
      decision.state === "found"
        ? sides.flatMap((s) => s.occurrences.flatMap((o) => o.evidence))
        : decision.state === "uncertain"
          ? refsOf(ctx.matches)
          : [],
    eventCount: sides.reduce((n, s) => n + s.occurrences.length, 0),
  };
}
