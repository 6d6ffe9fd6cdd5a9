import type { MediaProbe } from "../domain/media";
import type { TimeRange } from "./segmenter";

/** A piece of timed text the engine actually read or heard. Times in seconds. */
export interface TimedText {
  start: number;
  end: number;
  text: string;
  /** `caption`: a cue of a text track in the file; `speech`: recognised from the audio. */
  origin: "caption" | "speech";
  /** Evidence source, e.g. `text-track:0:eng`, `captions-uploaded:en` or `whisper:en`. */
  source: string;
  /** Language code as the container or the model named it; null when unknown. */
  language: string | null;
  /** Orders groups in a transcript: the text track index, or a high number for speech. */
  group: number;
}

/** Caption spans of every text track, and how many cues fell outside the video. */
export interface CaptionSpans {
  spans: TimedText[];
  /** Cues starting at or after the end of the video (or with unusable times), left out. */
  outsideDuration: number;
}

/** Every cue of every text track of the probe as caption spans, keeping each cue's own times. */
export function captionSpans(probe: MediaProbe): CaptionSpans {
  const spans: TimedText[] = [];
  let outsideDuration = 0;
  const tracks = [...probe.textTracks].sort((a, b) => a.index - b.index);
  for (const track of tracks) {
    const language = normalizeLanguage(track.language);
    const source = track.source ?? `text-track:${track.index}${language ? `:${language}` : ""}`;
    for (const cue of track.cues) {
      const text = normalizeCueText(cue.text);
      if (text === "") continue;
      const usable = Number.isFinite(cue.start) && Number.isFinite(cue.end) && cue.end >= cue.start;
      if (!usable || cue.start < 0 || cue.start >= probe.duration) {
        outsideDuration++;
        continue;
      }
      spans.push({
        start: cue.start,
        end: cue.end,
        text,
        origin: "caption",
        source,
        language,
        group: track.index,
      });
    }
  }
  return { spans: sortTexts(spans), outsideDuration };
}

/** Stable order: by group, then time, then text, so output never depends on input order. */
export function sortTexts(texts: readonly TimedText[]): TimedText[] {
  return [...texts].sort(
    (a, b) =>
      a.group - b.group ||
      a.start - b.start ||
      a.end - b.end ||
      (a.text < b.text ? -1 : a.text > b.text ? 1 : 0),
  );
}

/** The texts that overlap a segment; a text spanning a boundary belongs to both sides. */
export function textsInSegment(texts: readonly TimedText[], segment: TimeRange): TimedText[] {
  return texts.filter((t) =>
    t.end === t.start
      ? t.start >= segment.start && t.start < segment.end
      : t.start < segment.end && t.end > segment.start,
  );
}

/**
 * The segment's transcript: captions when it has any (authored text beats recognition),
 * else recognised speech. One line per track, cues in time order, repeats collapsed.
 */
export function transcriptOf(texts: readonly TimedText[]): {
  text: string;
  origin: TimedText["origin"] | null;
} {
  const captions = texts.filter((t) => t.origin === "caption");
  const chosen = captions.length > 0 ? captions : texts.filter((t) => t.origin === "speech");
  const first = chosen[0];
  if (first === undefined) return { text: "", origin: null };
  const lines = new Map<number, string[]>();
  for (const t of sortTexts(chosen)) {
    const line = lines.get(t.group) ?? [];
    // Rolling captions repeat the same line in consecutive cues.
    if (line.at(-1) !== t.text) line.push(t.text);
    lines.set(t.group, line);
  }
  const text = [...lines.values()].map((l) => l.join(" ")).join("\n");
  return { text, origin: first.origin };
}

/** Plain text of a cue: styling of ASS, WebVTT and SRT removed, whitespace collapsed. */
export function normalizeCueText(raw: string): string {
  return raw
    .replace(/\{[^}]*\}/g, "")
    .replace(/\\[Nnh]/g, " ")
    .replace(/<[^>]*>/g, "")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
}

/** Lowercase language code; `und` and empty mean unknown. */
export function normalizeLanguage(code: string | undefined): string | null {
  const c = code?.trim().toLowerCase() ?? "";
  return c === "" || c === "und" ? null : c;
}
