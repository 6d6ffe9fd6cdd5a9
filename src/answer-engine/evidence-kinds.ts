import type { AnswerSpec, ReasonCode } from "../domain/answers";
import { COMPLETE_SHARE, type EvidenceKind } from "../domain/evidence";
import { sameLanguage } from "../lib/text/language";
import type { EngineVideo } from "./types";
import { extentOf } from "./video-extent";

/**
 * One accepted evidence type of a spec: the kinds that can serve a `found`, and the kinds that
 * must all have been inspected before its absence counts (`clip` is seen and heard).
 */
export interface KindGroup {
  type: string;
  kinds: EvidenceKind[];
  needs: EvidenceKind[];
}

/** What a spec accepts as evidence: groups that must all be extracted, and the kinds matched. */
export interface KindRequirement {
  groups: KindGroup[];
  kinds: Set<EvidenceKind>;
}

const TIMED_KINDS: EvidenceKind[] = ["transcript", "scene", "ocr"];

// A clip is a stretch of the video: what is said or shown in it can support a found, but its
// absence needs both the words and the pictures inspected. Naming a kind asks for that kind.
const CLIP_NEEDS: EvidenceKind[] = ["transcript", "scene"];
const TYPE_KINDS: Record<string, EvidenceKind[]> = {
  clip: TIMED_KINDS,
  transcript: ["transcript"],
  speech: ["transcript"],
  audio: ["transcript"],
  ocr: ["ocr"],
  on_screen_text: ["ocr"],
  text: ["ocr"],
  scene: ["scene"],
  frame: ["scene"],
  visual: ["scene"],
  thumbnail: ["thumbnail"],
  metadata: ["metadata"],
};

/** The evidence requirement of a spec; no (known) accepted type means `clip`. */
export function kindRequirement(spec: AnswerSpec): KindRequirement {
  const seen = new Set<string>();
  const groups: KindGroup[] = [];
  for (const raw of spec.evidence?.accepted_types ?? []) {
    const type = raw
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, "_");
    const kinds = TYPE_KINDS[type];
    if (kinds === undefined || seen.has(type)) continue;
    seen.add(type);
    groups.push({ type, kinds, needs: type === "clip" ? CLIP_NEEDS : kinds });
  }
  if (groups.length === 0) groups.push({ type: "clip", kinds: TIMED_KINDS, needs: CLIP_NEEDS });
  return { groups, kinds: new Set(groups.flatMap((g) => g.kinds)) };
}

/**
 * Seconds one described frame stands for: about a second either side of it. What happens
 * between frames further apart was never seen, whatever the extent says the frames covered.
 */
export const FRAME_SECONDS = 2;

/** Seconds of the video within FRAME_SECONDS / 2 of a frame of this kind (a point span). */
function framedSeconds(video: EngineVideo, kind: EvidenceKind): number {
  const times = [
    ...new Set(
      video.segments.flatMap((s) => s.evidence.filter((e) => e.kind === kind).map((e) => e.start)),
    ),
  ].sort((a, b) => a - b);
  let seconds = 0;
  let reached = 0;
  for (const t of times) {
    const from = Math.max(reached, t - FRAME_SECONDS / 2, 0);
    const to = Math.min(t + FRAME_SECONDS / 2, video.duration);
    if (to > from) seconds += to - from;
    reached = Math.max(reached, to);
  }
  return seconds;
}

/** What keeps an absence from counting for one kind of one video, or undefined when nothing. */
function kindGap(video: EngineVideo, kind: EvidenceKind, locale: string): ReasonCode | undefined {
  // The thumbnail is one picture, never the whole video: it cannot make an absence certain.
  if (kind === "thumbnail") return "required_evidence_not_extracted";
  if (kind === "metadata")
    return video.coverage.metadata ? undefined : "required_evidence_not_extracted";
  const extent = extentOf(video);
  if (kind !== "transcript") {
    // A frame is seen for about FRAME_SECONDS, not for the whole stretch it was sampled from.
    const framed = video.duration > 0 ? framedSeconds(video, kind) / video.duration : 0;
    const share = Math.min(extent[kind].share, framed);
    if (share <= 0) return "required_evidence_not_extracted";
    return share >= COMPLETE_SHARE ? undefined : "partial_coverage";
  }
  const best = Math.max(0, ...extent.transcript.map((t) => t.share));
  // Speech was found but never transcribed: what was said is unknown, not absent.
  const untranscribed =
    (extent.speech?.speech_seconds ?? 0) > 0 &&
    !extent.transcript.some((t) => t.origin === "speech");
  if (best < COMPLETE_SHARE && untranscribed) return "speech_not_transcribed";
  if (best <= 0) return "required_evidence_not_extracted";
  if (best < COMPLETE_SHARE) return "partial_coverage";
  const inLocale = extent.transcript.filter(
    (t) => t.language !== null && sameLanguage(t.language, locale) && t.share >= COMPLETE_SHARE,
  );
  return inLocale.length > 0 ? undefined : "language_mismatch";
}

const GAP_ORDER: ReasonCode[] = [
  "speech_not_transcribed",
  "required_evidence_not_extracted",
  "partial_coverage",
  "language_mismatch",
];

/**
 * Why an absence in this video would not be backed, or undefined when every needed kind of
 * every accepted type covers at least COMPLETE_SHARE of it, transcripts in the run's locale.
 */
export function absenceGap(
  video: EngineVideo,
  requirement: KindRequirement,
  locale: string,
): ReasonCode | undefined {
  const gaps = requirement.groups.flatMap((g) =>
    g.needs.flatMap((k) => kindGap(video, k, locale) ?? []),
  );
  return GAP_ORDER.find((r) => gaps.includes(r));
}

/** Accepted types whose evidence does not back an absence in the video, for summaries. */
export function missingTypes(
  video: EngineVideo,
  requirement: KindRequirement,
  locale: string,
): string[] {
  return requirement.groups
    .filter((g) => g.needs.some((k) => kindGap(video, k, locale) !== undefined))
    .map((g) => g.type);
}
