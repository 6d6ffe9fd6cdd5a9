import type { AnswerAttribute, AnswerItem } from "../../domain/answers";
import type { EvidenceRef } from "../../domain/evidence";
import { type AnswerContext, absenceOf, plural } from "../context";
import { distinctRefs } from "../evidence-ids";
import type { VideoInspection } from "../inspection";
import { isSupporting, type SegmentMatch } from "../matching";
import { aggregateAny, type Decision, decideVideos } from "../states";

/** Every ref the matches cite, without repeats. */
export function refsOf(matches: SegmentMatch[]): EvidenceRef[] {
  return distinctRefs(matches.flatMap((m) => m.evidence));
}

/** Matches of one video. */
export function inVideo(matches: SegmentMatch[], video: VideoInspection): SegmentMatch[] {
  return matches.filter((m) => m.videoIndex === video.index);
}

/** The label of a video: its title, else its id. */
export function videoLabel(video: VideoInspection): string {
  return video.video.title.trim() || video.video.id;
}

/** A numeric or text attribute without evidence. */
export function attribute(
  key: string,
  label: string,
  value: string | number | boolean,
  unit?: string,
): AnswerAttribute {
  return unit === undefined ? { key, label, value } : { key, label, unit, value };
}

/** The refs that carry a state: support for found, every doubtful match for uncertain. */
export function stateEvidence(state: Decision["state"], matches: SegmentMatch[]): EvidenceRef[] {
  if (state === "found") return refsOf(matches.filter(isSupporting));
  if (state === "uncertain") return refsOf(matches);
  return [];
}

/** Per-video decisions of the context's matches, and their aggregate ("anywhere"). */
export function videoDecisions(ctx: AnswerContext, matches = ctx.matches, probes = ctx.probes) {
  const absence = probes === ctx.probes ? absenceOf(ctx) : absenceOf({ ...ctx, probes });
  const decisions = decideVideos(ctx.inspection.videos, matches, absence);
  return { decisions, overall: aggregateAny(decisions) };
}

/**
 * The state of an answer made of items (enumeration, timeline, retrieval, synthesis): found
 * when any item is found (each item carries its own state), else what the videos say.
 */
export function setDecision(ctx: AnswerContext, items: AnswerItem[]): Decision {
  if (items.some((i) => i.result_state === "found")) return { state: "found" };
  return videoDecisions(ctx).overall;
}

/** "3 values found in 2 of 2 videos", counting the videos the items cite. */
export function foundSentence(ctx: AnswerContext, found: AnswerItem[], noun: string): string {
  const videos = new Set(found.flatMap((i) => i.evidence.map((r) => r.video_id))).size;
  return `${plural(found.length, noun)} found in ${videos} of ${plural(ctx.inspection.videos.length, "video")}.`;
}
