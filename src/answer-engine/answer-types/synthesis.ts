import type { AnswerItem } from "../../domain/answers";
import type { EvidenceRef } from "../../domain/evidence";
import { lexicalScore, termCoverage } from "../../lib/text/search-scoring";
import { type AnswerContext, plural, reasonSentence } from "../context";
import { evidenceRef } from "../evidence-ids";
import { STRONG_SCORE } from "../matching";
import type { AnswerDraft } from "../payload";
import type { Decision } from "../states";
import { setDecision } from "./shared";

/** At most this many sentences make the summary. */
export const SYNTHESIS_SENTENCES = 5;

interface Sentence {
  text: string;
  ref: EvidenceRef;
  videoIndex: number;
  weight: number;
  /** It holds every word of a probe: it says what was asked. */
  strong: boolean;
}

// Caption line breaks are layout, not sentence ends.
function split(text: string): string[] {
  return text
    .replace(/\s+/g, " ")
    .split(/(?<=[.!?])\s+/u)
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

function byTime(a: Sentence, b: Sentence): number {
  return (
    a.videoIndex - b.videoIndex ||
    a.ref.start_time - b.ref.start_time ||
    a.ref.evidence_id.localeCompare(b.ref.evidence_id) ||
    a.text.localeCompare(b.text)
  );
}

/** Every sentence of the accepted spans read, in time order (thumbnails say nothing). */
function allSentences(ctx: AnswerContext): Sentence[] {
  return ctx.inspection.videos.flatMap((v) =>
    v.read.flatMap((segment) =>
      segment.evidence
        .filter((span) => ctx.requirement.kinds.has(span.kind) && span.kind !== "thumbnail")
        .flatMap((span) =>
          split(span.text).map((text) => ({
            text,
            ref: evidenceRef(v.video, segment, span),
            videoIndex: v.index,
            weight: Math.max(0, ...ctx.probes.map((p) => termCoverage(p.query, text))),
            strong: ctx.probes.some((p) => lexicalScore(p.query, text) >= STRONG_SCORE),
          })),
        ),
    ),
  );
}

/**
 * With nothing to look for ("Summarise the video"): evenly spaced sentences, so the summary
 * spans the whole of what was read.
 */
function spread(sentences: Sentence[]): Sentence[] {
  if (sentences.length <= SYNTHESIS_SENTENCES) return sentences;
  const step = sentences.length / SYNTHESIS_SENTENCES;
  return Array.from(
    { length: SYNTHESIS_SENTENCES },
    (_, i) => sentences[Math.floor(i * step)],
  ).filter((s): s is Sentence => s !== undefined);
}

// A cue across a segment boundary is in both segments: say it once.
function dedupe(sentences: Sentence[]): Sentence[] {
  const seen = new Set<string>();
  return sentences.filter((s) => {
    const key = `${s.videoIndex}|${s.text.toLowerCase()}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * An extractive summary, never generated prose: up to five sentences quoted from the accepted
 * spans read, those holding the largest share of a probe's words, put back in time order, each
 * cited. A sentence holding every word of a probe is found; one holding only some is an
 * uncertain quote, and a summary of only such quotes is uncertain. Quotes keep their own
 * negations, so negation plays no part here.
 */
export function answerSynthesis(ctx: AnswerContext): AnswerDraft {
  const sentences = dedupe(allSentences(ctx).sort(byTime));
  const chosen =
    ctx.probes.length === 0
      ? spread(sentences)
      : sentences
          .filter((s) => s.weight > 0)
          .sort((a, b) => b.weight - a.weight || byTime(a, b))
          .slice(0, SYNTHESIS_SENTENCES)
          .sort(byTime);
  const isFound = (s: Sentence) => ctx.probes.length === 0 || s.strong;
  const items: AnswerItem[] = chosen.map((s, i) => ({
    item_id: `sentence_${i + 1}`,
    label: s.text,
    result_state: isFound(s) ? "found" : "uncertain",
    value: s.text,
    attributes: [],
    evidence: [s.ref],
  }));
  const found = chosen.filter(isFound);
  const decision: Decision =
    found.length === 0 && chosen.length > 0
      ? { state: "uncertain", reason: "below_threshold" }
      : setDecision(ctx, items);
  const text = found.map((s) => s.text).join(" ");
  const videos = new Set(found.map((s) => s.videoIndex)).size;
  return {
    decision,
    summary:
      decision.state === "found"
        ? `Extractive summary of ${plural(found.length, "sentence")} quoted from ${plural(videos, "video")}.`
        : reasonSentence(ctx, decision),
    ...(decision.state === "found" ? { value: text } : {}),
    items,
    contributing:
      decision.state === "found"
        ? found.map((s) => s.ref)
        : decision.state === "uncertain"
          ? chosen.map((s) => s.ref)
          : [],
    eventCount: found.length,
  };
}
