import type { AnswerItem } from "../../domain/answers";
import { type AnswerContext, clock, excerpt, reasonSentence } from "../context";
import { isSupporting } from "../matching";
import type { AnswerDraft } from "../payload";
import { attribute, foundSentence, refsOf, setDecision } from "./shared";

/** At most this many ranked segments are returned; the drill-down path lists all evidence. */
export const RETRIEVAL_LIMIT = 20;

/**
 * Matching segments ranked by score (ties: source order, time, id): strong supporting matches
 * are found items, borderline and negating ones uncertain items.
 */
export function answerRetrieval(ctx: AnswerContext): AnswerDraft {
  const ranked = [...ctx.matches]
    .sort(
      (a, b) =>
        b.score - a.score ||
        a.videoIndex - b.videoIndex ||
        a.segment.start - b.segment.start ||
        a.segment.id.localeCompare(b.segment.id),
    )
    .slice(0, RETRIEVAL_LIMIT);
  const items = ranked.map(
    (m, rank): AnswerItem => ({
      item_id: m.segment.id,
      label: excerpt(m.evidence.map((r) => r.text).join(" "), 120),
      result_state: isSupporting(m) ? "found" : "uncertain",
      value: Math.round(m.score * 10_000) / 10_000,
      attributes: [
        attribute("rank", "Rank", rank + 1),
        attribute("score", "Score", Math.round(m.score * 10_000) / 10_000),
        attribute("start_time", "Start", m.segment.start, "seconds"),
        attribute("end_time", "End", m.segment.end, "seconds"),
        attribute("video_id", "Video", m.video.id),
      ],
      evidence: m.evidence,
    }),
  );
  const found = items.filter((i) => i.result_state === "found");
  const decision = setDecision(ctx, items);
  const best = ranked.find(isSupporting);
  const summary =
    decision.state === "found" && best !== undefined
      ? `${foundSentence(ctx, found, "matching segment")} Best at ${clock(best.evidence[0]?.start_time ?? best.segment.start)} (score ${Math.round(best.score * 10_000) / 10_000}).`
      : reasonSentence(ctx, decision);
  const known = decision.state === "found" || decision.state === "not_found";
  return {
    decision,
    summary,
    ...(known ? { value: found.length } : {}),
    unit: "segments",
    items,
    contributing:
      decision.state === "found"
        ? found.flatMap((i) => i.evidence)
        : decision.state === "uncertain"
          ? refsOf(ctx.matches)
          : [],
    eventCount: found.length,
  };
}
