import type { EvidenceRef } from "../../domain/evidence";
import { lexicalScore, stems } from "../../lib/text/search-scoring";
import { searchText } from "../../lib/text/search-text";
import { distinctRefs, evidenceRef } from "./evidence-ids";
import type { KindRequirement } from "./evidence-kinds";
import type { Inspection } from "./inspection";
import { negatedNear } from "./negation";
import type { EngineSegment, EngineVideo } from "./port";
import { type Probe, probeStems } from "./probe";

/** At or above: every probe word present (0.85) or the probe as written (0.97). Support. */
export const STRONG_SCORE = 0.85;
/** At or above, below strong: most probe words present (3 of 4, 4 of 5, ...). Borderline. */
export const BORDERLINE_SCORE = 0.45;

/** A segment that matches a probe at least at the borderline. */
export interface SegmentMatch {
  videoIndex: number;
  video: EngineVideo;
  segment: EngineSegment;
  /** Best lexical score over the probes, 0-1. */
  score: number;
  probeIndex: number;
  strong: boolean;
  /** Its polarity differs from the probe's: "do not wear gloves" against "wear gloves". */
  opposing: boolean;
  /** Accepted spans holding at least one probe word, in time order: what it cites. */
  evidence: EvidenceRef[];
  /** Those of them that are strong matches on their own (one mention each). */
  strongEvidence: EvidenceRef[];
}

type Span = EngineSegment["evidence"][number];

function acceptedSpans(segment: EngineSegment, requirement: KindRequirement): Span[] {
  return segment.evidence.filter((span) => requirement.kinds.has(span.kind));
}

/**
 * The text a segment is matched on: what search reads (`searchText`), but only from spans of
 * accepted kinds, and with the transcript rebuilt from its spans, since only spans can be
 * cited. Tags are left out for the same reason.
 */
export function matchText(segment: EngineSegment, requirement: KindRequirement): string {
  const spans = acceptedSpans(segment, requirement);
  return searchText({
    transcript: spans
      .filter((s) => s.kind === "transcript")
      .map((s) => s.text)
      .join("\n"),
    tags: [],
    evidence: spans.filter((s) => s.kind !== "transcript"),
  });
}

/** The best probe for a segment and its score (ties go to the earlier probe). */
export function bestProbe(text: string, probes: Probe[]): { score: number; probeIndex: number } {
  let best = { score: 0, probeIndex: -1 };
  probes.forEach((probe, probeIndex) => {
    const score = text === "" ? 0 : lexicalScore(probe.query, text);
    if (score > best.score) best = { score, probeIndex };
  });
  return best;
}

/** Matches one segment against the probes; null below the borderline or with nothing to cite. */
export function matchSegment(
  video: EngineVideo,
  videoIndex: number,
  segment: EngineSegment,
  probes: Probe[],
  requirement: KindRequirement,
): SegmentMatch | null {
  const { score, probeIndex } = bestProbe(matchText(segment, requirement), probes);
  const probe = probes[probeIndex];
  if (probe === undefined || score < BORDERLINE_SCORE) return null;
  const terms = probeStems(probe);
  const cited = acceptedSpans(segment, requirement)
    .filter((span) => stems(span.text).some((s) => terms.has(s)))
    .sort((a, b) => a.start - b.start || a.end - b.end);
  if (cited.length === 0) return null;
  const own = cited.map((span) => lexicalScore(probe.query, span.text));
  // Polarity is judged on spans that match on their own, so a stray "never" in a cue that
  // shares one word with the probe does not flip the segment; words spread over spans fall
  // back to all of them.
  const judged = cited.filter((_, i) => (own[i] ?? 0) >= BORDERLINE_SCORE);
  const opposing = (judged.length > 0 ? judged : cited).some(
    (span) => negatedNear(span.text, terms) !== probe.negated,
  );
  const refs = cited.map((span) => evidenceRef(video, segment, span));
  return {
    videoIndex,
    video,
    segment,
    score,
    probeIndex,
    strong: score >= STRONG_SCORE,
    opposing,
    evidence: distinctRefs(refs),
    strongEvidence: distinctRefs(refs.filter((_, i) => (own[i] ?? 0) >= STRONG_SCORE)),
  };
}

/** Every match in the segments read, in source order then time order. */
export function matchInspection(
  inspection: Inspection,
  probes: Probe[],
  requirement: KindRequirement,
): SegmentMatch[] {
  return inspection.videos.flatMap((v) =>
    v.read.flatMap((segment) => {
      const match = matchSegment(v.video, v.index, segment, probes, requirement);
      return match === null ? [] : [match];
    }),
  );
}

/** Supports the probe: strong and of the same polarity. */
export function isSupporting(match: SegmentMatch): boolean {
  return match.strong && !match.opposing;
}
