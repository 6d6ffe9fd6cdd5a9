import type { EvidenceRef } from "../domain/evidence";
import { lexicalScore, stems } from "../lib/text/search-scoring";
import { searchText } from "../lib/text/search-text";
import { ENGLISH } from "./english";
import { distinctRefs, evidenceRef } from "./evidence-ids";
import type { KindRequirement } from "./evidence-kinds";
import type { Inspection } from "./inspection";
import { fitsMode, type LanguageReading, type SentenceMode } from "./language-reading";
import { polarityOf } from "./negation";
import { probeStems, type QuestionProbe } from "./question-probes";
import type { EngineSegment, EngineVideo } from "./types";
import { type TextUnit, textUnits } from "./units";

/** At or above: every probe word present (0.85) or the probe as written (0.97). Support. */
export const STRONG_SCORE = 0.85;
/**
 * At or above, below strong: at least half the probe words present (1 of 2, 2 of 3, 3 of 5:
 * 0.2125 and up). Borderline: it may be about the question in other words ("The operators left
 * early. Vests hang on the wall." for "Do operators wear vests?"), so it is never support, and
 * it keeps an absence from being claimed.
 */
export const BORDERLINE_SCORE = 0.2;

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
  /**
   * Its polarity differs from the probe's ("do not wear gloves" against "wear gloves") or
   * cannot be told (a double negative): never support.
   */
  opposing: boolean;
  /** Opposing only because the polarity cannot be told, never because it is plainly negated. */
  unclearPolarity: boolean;
  /**
   * Its sentences holding every probe word all state a rule or intent where the question asks
   * what happened (`instruction`), or all report what happened where it asks for a rule
   * (`observation`), or some have a form that tells neither (`unclear`); null when some
   * sentence fits the question, or none holds every word.
   */
  modeMismatch: "instruction" | "observation" | "unclear" | null;
  /** Accepted spans holding at least one probe word, in time order: what it cites. */
  evidence: EvidenceRef[];
  /**
   * The sentences that support the probe (one mention each): every probe word, the probe's
   * polarity, and the kind of statement the question asks for.
   */
  strongUnits: StrongUnit[];
}

type Span = EngineSegment["evidence"][number];

/** How a span of a video is read: the reading of its language (a transcript's track or speech). */
export type ReadingOf = (video: EngineVideo, span: Span) => LanguageReading;

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
export function bestProbe(
  text: string,
  probes: QuestionProbe[],
): { score: number; probeIndex: number } {
  let best = { score: 0, probeIndex: -1 };
  probes.forEach((probe, probeIndex) => {
    const score = text === "" ? 0 : lexicalScore(probe.query, text);
    if (score > best.score) best = { score, probeIndex };
  });
  return best;
}

function unitScores(units: TextUnit[], probes: QuestionProbe[]) {
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
  probes: QuestionProbe[],
  requirement: KindRequirement,
  readingOf: ReadingOf = () => ENGLISH,
): SegmentMatch | null {
  const spans = acceptedSpans(segment, requirement);
  const read = (span: Span | undefined) => (span ? readingOf(video, span) : ENGLISH);
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
  const scored = units.map((unit) => {
    const reading = read(unit.spans[0]);
    return {
      unit,
      reading,
      score: lexicalScore(probe.query, unit.text),
      polarity: polarityOf(unit.text, terms, reading.isNegationCue),
    };
  });
  const wanted = probe.negated ? "negative" : "positive";
  // Polarity is judged on the best sentences: those with every probe word when there are
  // any, else those at least borderline on their own, so "Nobody wore safety glasses" beside
  // "Everyone was wearing gloves" does not flip a match for "gloves worn"; words spread over
  // sentences fall back to every cited span.
  const strongest = scored.filter((u) => u.score >= STRONG_SCORE);
  const judged = (
    strongest.length > 0 ? strongest : scored.filter((u) => u.score >= BORDERLINE_SCORE)
  ).map((u) => u.polarity);
  const polarities =
    judged.length > 0
      ? judged
      : cited.map((span) => polarityOf(span.text, terms, read(span).isNegationCue));
  const against = polarities.filter((p) => p !== wanted);
  const ref = (span: Span) => evidenceRef(video, segment, span);
  const whole = scored
    .filter((u) => u.score >= STRONG_SCORE && u.polarity === wanted)
    .map((u) => ({ ...u, form: u.reading.sentenceMode(u.unit.text, terms) }));
  const strongUnits = whole
    .filter((u) => fitsMode(probe.mode, u.form))
    .map((u) => ({
      text: u.unit.text,
      evidence: distinctRefs(u.unit.spans.map(ref)),
      exact: u.score >= EXACT_SCORE,
    }));
  const mismatched = whole.length > 0 && strongUnits.length === 0;
  return {
    videoIndex,
    video,
    segment,
    score,
    probeIndex,
    strong,
    exact: strongUnits.some((u) => u.exact),
    opposing: against.length > 0,
    unclearPolarity: against.length > 0 && against.every((p) => p === "unclear"),
    modeMismatch: mismatched
      ? mismatchOf(
          probe.mode,
          whole.map((u) => u.form),
        )
      : null,
    evidence: distinctRefs(cited.map(ref)),
    strongUnits,
  };
}

/** Why no sentence fits: all of the other mode, or some whose form tells neither. */
function mismatchOf(
  mode: QuestionProbe["mode"],
  forms: SentenceMode[],
): SegmentMatch["modeMismatch"] {
  if (forms.includes("unknown")) return "unclear";
  return mode === "rule" ? "observation" : "instruction";
}

/** How one sentence reads towards a probe: its score, its polarity and its kind of statement. */
export interface SentenceReading {
  score: number;
  polarity: "positive" | "negative" | "unclear";
  form: SentenceMode;
  /** The polarity the probe asks for: negative for a negated probe ("Was nobody hurt?"). */
  wanted: "positive" | "negative";
}

/**
 * One sentence read as the matcher reads it: `stems` are the words its negations and
 * infinitives are judged against (the probe's, and any others a caller adds).
 */
export function readSentence(
  text: string,
  probe: QuestionProbe,
  stems: ReadonlySet<string> = probeStems(probe),
  reading: LanguageReading = ENGLISH,
): SentenceReading {
  return {
    score: lexicalScore(probe.query, text),
    polarity: polarityOf(text, stems, reading.isNegationCue),
    form: reading.sentenceMode(text, stems),
    wanted: probe.negated ? "negative" : "positive",
  };
}

/** Every match in the segments read, in source order then time order. */
export function matchInspection(
  inspection: Inspection,
  probes: QuestionProbe[],
  requirement: KindRequirement,
  readingOf?: ReadingOf,
): SegmentMatch[] {
  return inspection.videos.flatMap((v) =>
    v.read.flatMap((segment) => {
      const match = matchSegment(v.video, v.index, segment, probes, requirement, readingOf);
      return match === null ? [] : [match];
    }),
  );
}

/** Supports the probe: a sentence with every probe word, its polarity and its kind of statement. */
export function isSupporting(match: SegmentMatch): boolean {
  return match.strong && !match.opposing && match.strongUnits.length > 0;
}
