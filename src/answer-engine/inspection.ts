import type { ReasonCode } from "../domain/answers";
import { sameLanguage } from "../lib/text/language";
import { absenceGap, type KindRequirement } from "./evidence-kinds";
import type { EngineSegment, EngineVideo } from "./types";
import { transcriptLanguage } from "./video-extent";

/** What the engine read of one video. */
export interface VideoInspection {
  index: number;
  video: EngineVideo;
  /** All segments, in time order. */
  segments: EngineSegment[];
  /** The segments read within the budget: a prefix of `segments`. */
  read: EngineSegment[];
  /** Every segment was read. */
  fullyRead: boolean;
  /** Every needed kind covers the video (≥ COMPLETE_SHARE), transcripts in the run's locale. */
  extracted: boolean;
  /** Why not, when not. */
  gap: ReasonCode | undefined;
  /** Some segment read holds a span of an accepted kind: something was looked at. */
  touched: boolean;
}

/** What one answer read of all its videos, and what that cost. */
export interface Inspection {
  videos: VideoInspection[];
  mediaSeconds: number;
  /** The media budget stopped the engine before it read everything. */
  budgetExhausted: boolean;
}

// Floating-point sums of segment lengths must not fail a budget that exactly covers them.
const EPSILON = 1e-9;

function byTime(a: EngineSegment, b: EngineSegment): number {
  return a.start - b.start || a.end - b.end || a.id.localeCompare(b.id);
}

/**
 * The segment as an engine that reads only `languages` sees it: transcript spans known to be
 * in another language are left out (their negations and instructions cannot be read), and with
 * a run locale it does not read, nothing is (its questions cannot be read either).
 */
function readable(
  video: EngineVideo,
  segment: EngineSegment,
  locale: string,
  languages: readonly string[] | undefined,
): EngineSegment {
  if (languages === undefined) return segment;
  const reads = (language: string) => languages.some((l) => sameLanguage(l, language));
  if (!reads(locale)) return { ...segment, evidence: [] };
  const evidence = segment.evidence.filter((span) => {
    if (span.kind !== "transcript") return true;
    const language = transcriptLanguage(video, span.source);
    return language === null || reads(language);
  });
  return evidence.length === segment.evidence.length ? segment : { ...segment, evidence };
}

/**
 * Reads videos in source order, each segment in time order, while the media budget covers the
 * segment's length; the first segment it does not cover stops the reading. A video is then
 * fully read, read in part, or not read at all; what was not read is never an absence. An
 * engine that reads only some `languages` sees only spans in them (`readable`); a run locale
 * outside them leaves every video unchecked (`language_unsupported`).
 */
export function inspect(
  videos: EngineVideo[],
  requirement: KindRequirement,
  mediaSecondsBudget: number,
  locale: string,
  languages?: readonly string[],
): Inspection {
  const unsupported = languages !== undefined && !languages.some((l) => sameLanguage(l, locale));
  let remaining = Math.max(0, mediaSecondsBudget);
  let used = 0;
  let exhausted = false;
  const inspections = videos.map((video, index): VideoInspection => {
    const segments = [...video.segments].sort(byTime);
    const read: EngineSegment[] = [];
    for (const segment of segments) {
      if (exhausted) break;
      const cost = Math.max(0, segment.end - segment.start);
      if (cost > remaining + EPSILON) {
        exhausted = true;
        break;
      }
      remaining -= cost;
      used += cost;
      read.push(readable(video, segment, locale, languages));
    }
    const gap = unsupported ? "language_unsupported" : absenceGap(video, requirement, locale);
    return {
      index,
      video,
      segments,
      read,
      fullyRead: !exhausted && read.length === segments.length,
      extracted: gap === undefined,
      gap,
      touched: read.some((s) => s.evidence.some((e) => requirement.kinds.has(e.kind))),
    };
  });
  return {
    videos: inspections,
    mediaSeconds: Math.round(used * 1000) / 1000,
    budgetExhausted: exhausted,
  };
}

/** A video was inspected completely: everything read, every accepted type extracted. */
export function isComplete(inspection: VideoInspection): boolean {
  return inspection.fullyRead && inspection.extracted;
}
