import { COMPLETE_SHARE } from "../domain/evidence";
import { ENGLISH } from "./english";
import { type KindRequirement, kindRequirement, missingTypes } from "./evidence-kinds";
import { type Inspection, inspect } from "./inspection";
import type { LanguageReading } from "./language-reading";
import { readingFor } from "./languages";
import { matchInspection, type ReadingOf, type SegmentMatch } from "./matching";
import { buildProbes, type QuestionProbe } from "./question-probes";
import { type AbsenceBasis, absenceBasis, type Decision } from "./states";
import type { AnswerRequest } from "./types";
import { transcriptLanguage } from "./video-extent";

/** mm:ss (h:mm:ss past an hour), for labels; the answer types import it from here. */
export { formatClock as clock } from "../lib/time-format";

/** Everything both engines derive from a request before answering. */
export interface AnswerContext {
  request: AnswerRequest;
  requirement: KindRequirement;
  probes: QuestionProbe[];
  inspection: Inspection;
  /** Matches in the segments read, in source order then time order. */
  matches: SegmentMatch[];
  /** Video id → position in the request, for stable ordering. */
  videoOrder: Map<string, number>;
  /** How the question is read: the run locale's language (English when it has no reading). */
  reading: LanguageReading;
  /** How a span is read: its transcript's language, else the question's. */
  readingOf: ReadingOf;
  /**
   * What an absence of matches shows, when a caller knows more than the probes: the production
   * engine backs an absence with a model's reading of meaning (docs/answer-engine.md §8).
   */
  absence?: AbsenceBasis;
}

/** What an absence of matches shows for this answer: the caller's basis, else the probes'. */
export function absenceOf(ctx: AnswerContext): AbsenceBasis {
  return ctx.absence ?? absenceBasis(ctx.probes);
}

/**
 * Probes, evidence requirement, budgeted reading and matching of one request. `languages`: the
 * only languages the engine reads (its negation and instruction rules); absent, any.
 */
export function buildContext(request: AnswerRequest, languages?: readonly string[]): AnswerContext {
  const requirement = kindRequirement(request.spec);
  const reading = readingFor(request.locale) ?? ENGLISH;
  const readingOf: ReadingOf = (video, span) =>
    (span.kind === "transcript" ? readingFor(transcriptLanguage(video, span.source)) : undefined) ??
    reading;
  const probes = buildProbes(request.spec, request.instructions, request.mode, reading);
  const inspection = inspect(
    request.videos,
    requirement,
    request.budget.media_seconds,
    request.locale,
    languages,
  );
  return {
    request,
    requirement,
    probes,
    inspection,
    matches: matchInspection(inspection, probes, requirement, readingOf),
    videoOrder: new Map(request.videos.map((v, i) => [v.id, i])),
    reading,
    readingOf,
  };
}

/** "1 video", "3 videos". */
export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** Text cut on a word boundary for labels. */
export function excerpt(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** One sentence saying why an answer is not found, from its decision. */
export function reasonSentence(ctx: AnswerContext, decision: Decision): string {
  const videos = ctx.inspection.videos;
  const total = videos.length;
  switch (decision.reason) {
    case "conflicting_evidence":
      return "Conflicting evidence: matching segments negate what the answer looks for.";
    case "unclear_polarity":
      return "Matching sentences hold negations whose sense a word match cannot tell (a double negative, or a negation away from the words).";
    case "language_unsupported":
      return `This engine does not read questions and evidence in the run's locale (${ctx.request.locale}): their negations and instructions cannot be told, so nothing was judged.`;
    case "no_literal_match":
      return "None of the words was found in the evidence read; a word match cannot tell whether the same thing was said or shown in other words, so no absence is claimed.";
    case "unclear_statement":
      return "Matching sentences do not show by their form whether they report what happened or state a rule, so they support neither.";
    case "quantity_not_stated":
      return "Matching sentences state no single quantity of what was asked, so no number is given.";
    case "instruction_not_observation":
      return "Matching sentences state a rule, request or intent, not that it happened.";
    case "observation_not_instruction":
      return "Matching sentences say what happened, not that it is a rule or instruction.";
    case "below_threshold":
      return "Only partial matches (at least half of the words, not all) were found, below the threshold for support.";
    case "speech_not_transcribed": {
      const spoken = videos.filter((v) => v.gap === decision.reason);
      const seconds = spoken.reduce(
        (sum, v) => sum + (v.video.extent?.speech?.speech_seconds ?? 0),
        0,
      );
      return `Speech is present in ${spoken.length} of ${plural(total, "video")} (${Math.round(seconds * 10) / 10} s) but was not transcribed, so what was said is not known: nothing is claimed absent.`;
    }
    case "required_evidence_not_extracted":
    case "partial_coverage":
    case "language_mismatch": {
      const missing = videos.filter((v) => v.gap === decision.reason);
      const types = [
        ...new Set(
          missing.flatMap((v) => missingTypes(v.video, ctx.requirement, ctx.request.locale)),
        ),
      ].join(", ");
      const of = `${missing.length} of ${plural(total, "video")}`;
      if (decision.reason === "partial_coverage")
        return `The accepted evidence (${types}) covers less than ${COMPLETE_SHARE * 100}% of ${of}, so an absence is not certain.`;
      if (decision.reason === "language_mismatch")
        return `The transcript of ${of} is not in the run's locale (${ctx.request.locale}) or its language could not be told, so an absence is not certain.`;
      return `The accepted evidence (${types}) was not extracted for ${of}.`;
    }
    case "budget_exhausted": {
      const unread = videos.filter((v) => !v.fullyRead).length;
      if (unread === 0) return "The token budget ran out before every relevant segment was sent.";
      return `The processing budget ran out before ${unread} of ${plural(total, "video")} were fully read.`;
    }
    case "context_limit":
      return "Not every segment with accepted evidence fitted the prompt, so an absence cannot be claimed.";
    case "no_probe_terms":
      return "The answer spec names nothing to look for, so an absence proves nothing.";
    case "no_sources":
      return "The run has no videos.";
    case "no_supporting_evidence": {
      const kinds = ctx.requirement.groups.map((g) => g.type).join(", ");
      return `No supporting evidence (${kinds}) in ${plural(total, "video")}.`;
    }
    default:
      return "The evidence is insufficient.";
  }
}
