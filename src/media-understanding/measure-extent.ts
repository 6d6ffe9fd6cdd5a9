import {
  COMPLETE_SHARE,
  type ExtractionExtent,
  type KindExtent,
  type TextExtent,
} from "../domain/evidence";
import type { MediaProbe } from "../domain/media";
import { baseLanguage, detectLanguage } from "../lib/text/language";
import type { CaptionSpans } from "./timed-text";

const round = (n: number) => Math.round(n * 1000) / 1000;

/** Seconds as an extent of a video of `duration` seconds (share 0 for an unknown duration). */
export function kindExtent(seconds: number, duration: number): KindExtent {
  const s = Math.max(0, Math.min(seconds, duration));
  return { seconds: round(s), share: duration > 0 ? round(s / duration) : 0 };
}

/**
 * One extent per text track with cues: a track declares text from the start of the video to
 * its last cue's end, so its span is [0, last end] (silence after it is indistinguishable from
 * missing captions). Its language is the track's tag, else detected from its text.
 */
export function captionExtents(probe: MediaProbe, captions: CaptionSpans): TextExtent[] {
  const bySource = new Map<string, { end: number; text: string[]; tagged: string | null }>();
  for (const span of captions.spans) {
    const entry = bySource.get(span.source) ?? { end: 0, text: [], tagged: span.language };
    entry.end = Math.max(entry.end, span.end);
    entry.text.push(span.text);
    bySource.set(span.source, entry);
  }
  return [...bySource.entries()].map(([source, e]) => ({
    origin: "captions",
    source,
    language: e.tagged !== null ? baseLanguage(e.tagged) : detectLanguage(e.text.join(" ")),
    ...kindExtent(e.end, probe.duration),
  }));
}

/** One extent per language Whisper heard: the seconds of the chunks it transcribed validly. */
export function speechExtents(
  chunks: { seconds: number; language: string | null }[],
  duration: number,
): TextExtent[] {
  const byLanguage = new Map<string | null, number>();
  for (const c of chunks) byLanguage.set(c.language, (byLanguage.get(c.language) ?? 0) + c.seconds);
  return [...byLanguage.entries()].map(([language, seconds]) => ({
    origin: "speech",
    source: `whisper${language ? `:${language}` : ""}`,
    language: language === null ? null : baseLanguage(language),
    ...kindExtent(seconds, duration),
  }));
}

/**
 * What the described frames saw: the union of the stretches each stands for (at most half a
 * sampling interval either side of it), so overlapping or repeated frames count once.
 */
export function seenExtent(stretches: readonly { from: number; to: number }[], duration: number) {
  const sorted = [...stretches].filter((s) => s.to > s.from).sort((a, b) => a.from - b.from);
  let seconds = 0;
  let reach = Number.NEGATIVE_INFINITY;
  for (const s of sorted) {
    const from = Math.max(s.from, reach);
    if (s.to > from) seconds += s.to - from;
    reach = Math.max(reach, s.to);
  }
  return kindExtent(seconds, duration);
}

/** Whether some transcript source inspected the whole video (the `coverage.transcript` flag). */
export function transcriptComplete(extent: ExtractionExtent): boolean {
  return extent.transcript.some((t) => t.share >= COMPLETE_SHARE);
}
