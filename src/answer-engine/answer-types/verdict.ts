import type { AnswerItem } from "../../domain/answers";
import { type AnswerContext, clock, excerpt, plural, reasonSentence } from "../context";
import { isSupporting } from "../matching";
import type { AnswerDraft } from "../payload";
import { attribute, inVideo, stateEvidence, videoDecisions, videoLabel } from "./shared";

/**
 * One decision: per video (supported, negated, borderline, absent or unchecked), then across
 * videos. The value is true only when found and false only when not_found.
 */
export function answerVerdict(ctx: AnswerContext): AnswerDraft {
  const { decisions, overall } = videoDecisions(ctx);
  const items = ctx.inspection.videos.map((video, i): AnswerItem => {
    const state = decisions[i]?.state ?? "not_checked";
    const matches = inVideo(ctx.matches, video);
    const supporting = matches.filter(isSupporting).length;
    const value = state === "found" ? true : state === "not_found" ? false : undefined;
    return {
      item_id: video.video.id,
      label: videoLabel(video),
      result_state: state,
      ...(value === undefined ? {} : { value }),
      attributes: [
        attribute("supporting_segments", "Supporting segments", supporting),
        attribute(
          "negating_segments",
          "Negating segments",
          matches.filter((m) => m.opposing).length,
        ),
        attribute(
          "borderline_segments",
          "Borderline segments",
          matches.filter((m) => !m.strong && !m.opposing).length,
        ),
      ],
      evidence: stateEvidence(state, matches),
    };
  });
  const contributing = items
    .filter((item) => item.result_state === overall.state)
    .flatMap((item) => item.evidence);
  const supporting = ctx.matches.filter(isSupporting);
  const first = supporting[0];
  const summary =
    overall.state === "found" && first !== undefined
      ? `Supported by ${plural(supporting.length, "segment")} in ${items.filter((i) => i.result_state === "found").length} of ${plural(items.length, "video")}, first at ${clock(first.evidence[0]?.start_time ?? first.segment.start)}: "${excerpt(first.evidence.map((r) => r.text).join(" "), 120)}"`
      : reasonSentence(ctx, overall);
  const value =
    overall.state === "found" ? true : overall.state === "not_found" ? false : undefined;
  return {
    decision: overall,
    summary,
    ...(value === undefined ? {} : { value }),
    items,
    contributing,
    eventCount: supporting.length,
  };
}
