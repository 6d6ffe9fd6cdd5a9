import type { EvidenceRef } from "../../domain/evidence";
import { lexicalScore, stems } from "../../lib/text/search-scoring";
import { searchText } from "../../lib/text/search-text";
import { distinctRefs, evidenceRef } from "./evidence-ids";
import type { KindRequirement } from "./evidence-kinds";
import type { Inspection } from "./inspection";
import { negatedNear } from "./negation";
import type { EngineSegment, EngineVideo } from "./port";
import { type Probe, probeStems } from "./probe";
import { type TextUnit, textUnits } from "./units";

/** At or above: every probe word present (0.85) or the probe as written (0.97). Support. */
export const STRONG_SCORE = 0.85;
/** At or above, below strong: most probe words present (3 of 4, 4 of 5, ...). Borderline. */
export const BORDERLINE_SCORE = 0.45;

/** The score of a text holding the probe as written (`lexicalScore`'s phrase score). */
export const EXACT_SCORE = 0.97;

/** One sentence that holds every word of the probe: one statement, one mention. */
export interface StrongUnit {
  text: string;
  evidence: EvidenceRef[];
  /** The probe appears in it as written. */
  exact: boolean;
}

/** A segment that matches a probe at least at the borderline. */
export interface SegmentMatch {
  videoIndex: number;
  video: EngineVideo;
  segment: EngineSegment;
  /** Best lexical score over the probes, 0-1 (of one sentence when strong). */
  score: number;
  probeIndex: number;
  /** Some sentence holds every probe word; words spread over a segment are only borderline. */
  strong: boolean;
  /** Some sentence holds the probe as written. */
  exact: boolean;
  /** Its polarity differs from the probe's: "do not wear gloves" against "wear gloves". */
  opposing: boolean;
  /** Accepted spans holding at least one probe word, in time order: what it cites. */
  evidence: EvidenceRef[];
  /** The sentences that hold every probe word (one mention each). */
  strongUnits: StrongUnit[];
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

function unitScores(units: TextUnit[], probes: Probe[]) {
  let best = { score: 0, probeIndex: -1 };
  for (const unit of units) {
    const found = bestProbe(unit.text, probes);
    if (found.score > best.score) best = found;
  }
  return best;
}

/**
 * Matches one segment against the probes; null below the borderline or with nothing to cite.
 * Strong needs every probe word inside one sentence (of a span, or of consecutive cues);
 * the words spread over the segment make at most a borderline match.
 */
export function matchSegment(
  video: EngineVideo,
  videoIndex: number,
  segment: EngineSegment,
  probes: Probe[],
  requirement: KindRequirement,
): SegmentMatch | null {
  const spans = acceptedSpans(segment, requirement);
  const units = textUnits(spans);
  const local = unitScores(units, probes);
  const spread = bestProbe(matchText(segment, requirement), probes);
  const strong = local.score >= STRONG_SCORE;
  const { probeIndex } = strong || local.score >= spread.score ? local : spread;
  const score = strong ? local.score : Math.max(local.score, spread.score);
  const probe = probes[probeIndex];
  if (probe === undefined || score < BORDERLINE_SCORE) return null;
  const terms = probeStems(probe);
  const cited = spans
    .filter((span) => stems(span.text).some((s) => terms.has(s)))
    .sort((a, b) => a.start - b.start || a.end - b.end);
  if (cited.length === 0) return null;
  const scored = units.map((unit) => ({ unit, score: lexicalScore(probe.query, unit.text) }));
  // Polarity is judged on the sentences that match on their own, so a stray "never" in a
  // sentence sharing one word with the probe does not flip the segment; words spread over
  // sentences fall back to every cited span.
  const judged = scored.filter((u) => u.score >= BORDERLINE_SCORE).map((u) => u.unit.text);
  const opposing = (judged.length > 0 ? judged : cited.map((span) => span.text)).some(
    (text) => negatedNear(text, terms) !== probe.negated,
  );
  const ref = (span: Span) => evidenceRef(video, segment, span);
  const strongUnits = scored
    .filter((u) => u.score >= STRONG_SCORE)
    .map((u) => ({
      text: u.unit.text,
      evidence: distinctRefs(u.unit.spans.map(ref)),
      exact: u.score >= EXACT_SCORE,
    }));
  return {
    videoIndex,
    video,
    segment,
    score,
    probeIndex,
    strong,
    exact: strongUnits.some((u) => u.exact),
    opposing,
    evidence: distinctRefs(cited.map(ref)),
    strongUnits,
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
