import type { EvidenceRef } from "../../domain/evidence";
import { isSupporting, type SegmentMatch } from "../matching";
import { CUE_GAP_SECONDS } from "../units";

/** One supported mention: a sentence holding every probe word. */
export interface Occurrence {
  videoIndex: number;
  videoId: string;
  /** The evidence's interval; point spans (a frame) stand for their segment. */
  start: number;
  end: number;
  text: string;
  evidence: EvidenceRef[];
}

const spanKey = (r: EvidenceRef) => `${r.kind}|${r.start_time}|${r.end_time}|${r.text}`;

/**
 * The occurrences of the supporting matches: each sentence holding every probe word counts
 * once, even when its cue sits in two segments (a cue across a boundary).
 */
export function occurrencesOf(matches: SegmentMatch[]): Occurrence[] {
  const seen = new Set<string>();
  const out: Occurrence[] = [];
  for (const match of matches.filter(isSupporting)) {
    for (const unit of match.strongUnits) {
      const refs = unit.evidence;
      const key = `${match.videoIndex}#${unit.text}#${refs.map(spanKey).join("#")}`;
      if (seen.has(key) || refs.length === 0) continue;
      seen.add(key);
      let start = Math.min(...refs.map((r) => r.start_time));
      let end = Math.max(...refs.map((r) => r.end_time));
      if (end <= start) {
        start = match.segment.start;
        end = match.segment.end;
      }
      out.push({
        videoIndex: match.videoIndex,
        videoId: match.video.id,
        start,
        end,
        text: unit.text,
        evidence: refs,
      });
    }
  }
  return out.sort(
    (a, b) =>
      a.videoIndex - b.videoIndex ||
      a.start - b.start ||
      a.end - b.end ||
      a.text.localeCompare(b.text),
  );
}

/**
 * Seconds of the matched events, per video, summed: consecutive occurrences at most
 * CUE_GAP_SECONDS apart are one event, lasting from its first start to its last end.
 */
export function coveredSeconds(occurrences: Occurrence[]): number {
  let total = 0;
  let video = -1;
  let runStart = 0;
  let runEnd = -Infinity;
  for (const o of occurrences) {
    if (o.videoIndex !== video || o.start > runEnd + CUE_GAP_SECONDS) {
      if (runEnd > runStart) total += runEnd - runStart;
      video = o.videoIndex;
      runStart = o.start;
      runEnd = o.end;
    } else {
      runEnd = Math.max(runEnd, o.end);
    }
  }
  if (runEnd > runStart) total += runEnd - runStart;
  return Math.round(total * 1000) / 1000;
}
