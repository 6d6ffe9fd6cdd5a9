import type { IndexSegment } from "./types";

/**
 * What one index segment and the video's own facts may carry, whatever the file holds: a
 * container may hold megabytes of tags or of cues over one ten-second segment, and a
 * segment is one D1 row (at most 2,000,000 bytes). At 3 UTF-8 bytes per unit, a segment
 * stays under ~0.7 MB: transcript 60 KB, evidence 100 x 6 KB, tags 64 x 64 units.
 */
export const SEGMENT_BOUNDS = {
  transcriptChars: 20_000,
  evidenceSpans: 100,
  spanChars: 2_000,
  descriptionChars: 4_000,
  tags: 64,
  videoTags: 200,
  /** The container's title and description, kept with the video. */
  titleChars: 1_000,
  videoDescriptionChars: 10_000,
} as const;

/** `text` cut to at most `max` UTF-16 units, never inside a surrogate pair, marked when cut. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/** The segment within SEGMENT_BOUNDS: the first spans and tags, each text cut to its bound. */
export function boundSegment(segment: IndexSegment): IndexSegment {
  const b = SEGMENT_BOUNDS;
  return {
    ...segment,
    sceneDescription: cutText(segment.sceneDescription, b.descriptionChars),
    transcript: cutText(segment.transcript, b.transcriptChars),
    tags: segment.tags.slice(0, b.tags),
    evidence: segment.evidence
      .slice(0, b.evidenceSpans)
      .map((span) => ({ ...span, text: cutText(span.text, b.spanChars) })),
  };
}
