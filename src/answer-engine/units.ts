import type { EngineSegment } from "./types";

type Span = EngineSegment["evidence"][number];

/** Consecutive cues at most this many seconds apart can carry one sentence between them. */
export const CUE_GAP_SECONDS = 3;

/**
 * The smallest text a strong match must fall inside: one sentence, of one span or of a run of
 * consecutive cues of one track (a sentence may run across cues: "Operators must" / "wear
 * vests."). Words spread over sentences are not a statement of the probe.
 */
export interface TextUnit {
  text: string;
  /** The spans the sentence was read from, in time order. */
  spans: Span[];
}

// Caption line breaks are layout, not sentence ends.
const SENTENCE_END = /(?<=[.!?;])\s+/u;

function flat(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Sentences of a run of spans, each with the spans its characters came from. */
function sentencesOf(run: Span[]): TextUnit[] {
  const pieces = run.map((span) => ({ span, text: flat(span.text) })).filter((p) => p.text);
  const joined = pieces.map((p) => p.text).join(" ");
  const ranges: { span: Span; from: number; to: number }[] = [];
  let offset = 0;
  for (const p of pieces) {
    ranges.push({ span: p.span, from: offset, to: offset + p.text.length });
    offset += p.text.length + 1;
  }
  const units: TextUnit[] = [];
  let at = 0;
  for (const sentence of joined.split(SENTENCE_END)) {
    const from = joined.indexOf(sentence, at);
    const to = from + sentence.length;
    at = to;
    if (sentence.trim() === "") continue;
    const spans = ranges.filter((r) => r.from < to && r.to > from).map((r) => r.span);
    units.push({ text: sentence.trim(), spans });
  }
  return units;
}

/** Transcript spans grouped by source, then chained while each starts near the last's end. */
function cueRuns(spans: Span[]): Span[][] {
  const bySource = new Map<string, Span[]>();
  for (const span of spans) bySource.set(span.source, [...(bySource.get(span.source) ?? []), span]);
  const runs: Span[][] = [];
  for (const group of bySource.values()) {
    const sorted = [...group].sort((a, b) => a.start - b.start || a.end - b.end);
    let run: Span[] = [];
    let end = -Infinity;
    for (const span of sorted) {
      if (run.length > 0 && span.start - end > CUE_GAP_SECONDS) {
        runs.push(run);
        run = [];
      }
      run.push(span);
      end = Math.max(run.length === 1 ? span.end : end, span.end);
    }
    if (run.length > 0) runs.push(run);
  }
  return runs;
}

/** Every sentence unit of the given spans: cue runs for transcripts, each span alone otherwise. */
export function textUnits(spans: Span[]): TextUnit[] {
  const timed = spans.filter((s) => s.kind === "transcript");
  const other = spans.filter((s) => s.kind !== "transcript");
  return [...cueRuns(timed).flatMap(sentencesOf), ...other.flatMap((s) => sentencesOf([s]))];
}
