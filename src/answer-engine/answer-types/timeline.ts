import type { AnswerItem } from "../../domain/answers";
import type { EvidenceRef } from "../../domain/evidence";
import { type AnswerContext, clock, excerpt, reasonSentence } from "../context";
import { isSupporting, type SegmentMatch } from "../matching";
import type { AnswerDraft } from "../payload";
import { occurrencesOf } from "./occurrences";
import { attribute, foundSentence, refsOf, setDecision } from "./shared";

function event(
  id: string,
  videoId: string,
  start: number,
  end: number,
  text: string,
  state: AnswerItem["result_state"],
  evidence: EvidenceRef[],
): AnswerItem {
  return {
    item_id: id,
    label: excerpt(text, 120),
    result_state: state,
    attributes: [
      attribute("start_time", "Start", start, "seconds"),
      attribute("end_time", "End", end, "seconds"),
      attribute("video_id", "Video", videoId),
    ],
    evidence,
  };
}

/** A doubtful match as an event: its cited spans' interval, or its segment's. */
function doubtfulEvent(match: SegmentMatch): AnswerItem {
  const start = Math.min(...match.evidence.map((r) => r.start_time));
  const end = Math.max(...match.evidence.map((r) => r.end_time));
  const [s, e] = end > start ? [start, end] : [match.segment.start, match.segment.end];
  const text = match.evidence.map((r) => r.text).join(" ");
  return event(
    `${match.segment.id}:doubtful`,
    match.video.id,
    s,
    e,
    text,
    "uncertain",
    match.evidence,
  );
}

/**
 * Time-ordered events: each supporting occurrence is a found event with its interval; every
 * other match (borderline, negating, of the wrong mode) is an uncertain event. Ordered by
 * source, then time.
 */
export function answerTimeline(ctx: AnswerContext): AnswerDraft {
  const found = occurrencesOf(ctx.matches).map((o, i) => ({
    order: [o.videoIndex, o.start, 0] as const,
    item: event(`${o.videoId}:${i}`, o.videoId, o.start, o.end, o.text, "found", o.evidence),
  }));
  const doubtful = ctx.matches
    .filter((m) => !isSupporting(m))
    .map((m) => ({ order: [m.videoIndex, m.segment.start, 1] as const, item: doubtfulEvent(m) }));
  const items = [...found, ...doubtful]
    .sort((a, b) => a.order[0] - b.order[0] || a.order[1] - b.order[1] || a.order[2] - b.order[2])
    .map((e) => e.item);
  const events = items.filter((i) => i.result_state === "found");
  const decision = setDecision(ctx, items);
  const first = found[0];
  const summary =
    decision.state === "found" && first !== undefined
      ? `${foundSentence(ctx, events, "event")} The first at ${clock(first.order[1])}.`
      : reasonSentence(ctx, decision);
  const known = decision.state === "found" || decision.state === "not_found";
  return {
    decision,
    summary,
    ...(known ? { value: events.length } : {}),
    unit: "events",
    items,
    contributing:
      decision.state === "found"
        ? events.flatMap((i) => i.evidence)
        : decision.state === "uncertain"
          ? refsOf(ctx.matches)
          : [],
    eventCount: events.length,
  };
}
