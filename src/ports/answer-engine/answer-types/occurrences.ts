import type { EvidenceRef } from "../../../domain/evidence";
import { isSupporting, type SegmentMatch } from "../matching";

/** One supported mention: a strong span, or a segment whose words are spread over spans. */
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
 * The occurrences of the supporting matches. Each span that is a strong match on its own
 * counts once, even when it sits in two segments (a cue across a boundary); a supporting
 * segment none of whose spans is strong alone counts once as a whole.
 */
export function occurrencesOf(matches: SegmentMatch[]): Occurrence[] {
  const seen = new Set<string>();
  const out: Occurrence[] = [];
  for (const match of matches.filter(isSupporting)) {
    const groups =
      match.strongEvidence.length > 0 ? match.strongEvidence.map((r) => [r]) : [match.evidence];
    for (const refs of groups) {
      const key = `${match.videoIndex}#${refs.map(spanKey).join("#")}`;
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
        text: refs.map((r) => r.text).join(" "),
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

/** Seconds covered by the occurrences, overlaps counted once (per video). */
export function coveredSeconds(occurrences: Occurrence[]): number {
  let total = 0;
  let video = -1;
  let runStart = 0;
  let runEnd = -Infinity;
  for (const o of occurrences) {
    if (o.videoIndex !== video || o.start > runEnd) {
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
