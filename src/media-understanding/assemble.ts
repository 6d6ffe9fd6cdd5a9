import type { EvidenceSpan } from "../domain/evidence";
import { boundSegment, cutText, SEGMENT_BOUNDS } from "./bounds";
import { describeSegment } from "./describe";
import { coverArtThumbnail, posterThumbnail, type Thumbnail } from "./poster";
import { screenLines } from "./screen-text";
import type { TimeRange } from "./segmenter";
import { type CaptionSpans, type TimedText, textsInSegment, transcriptOf } from "./timed-text";
import type { IndexSegment, UnderstandInput } from "./types";
import { containerTags, languageTags, mentionedTags, metadataEvidence, unique } from "./video-tags";

/** What a vision model said about one sampled frame. */
export interface FrameScene {
  time: number;
  description: string;
  tags: string[];
  visibleText: string[];
  source: string;
}

/** The on-screen text a screen reader read in one sampled frame (lines already held to its rule). */
export interface FrameText {
  time: number;
  lines: string[];
  source: string;
}

/** A real frame of the video, usable as the thumbnail. */
export interface FrameImage {
  time: number;
  contentType: string;
  bytes: Uint8Array;
}

/** Everything an engine extracted; `assemble` only arranges it, it adds nothing. */
export interface AssembleInput {
  input: UnderstandInput;
  bounds: readonly TimeRange[];
  captions: CaptionSpans;
  speech: readonly TimedText[];
  /** Described frames, each placed in the segment holding its time. */
  scenes: readonly FrameScene[];
  /** Frames read for on-screen text only (the local engine), each in the segment holding it. */
  screens?: readonly FrameText[];
  frameThumbnail: FrameImage | null;
  /** Said for a segment with neither frame description nor transcript. */
  emptyNote: string;
  /** Extra video-level tags the engine detected, e.g. vision labels. */
  detectedTags: readonly string[];
  /** Languages the engine detected in speech. */
  speechLanguages: readonly string[];
}

/** The parts of a VideoUnderstanding both engines build the same way. */
export interface Assembled {
  segments: IndexSegment[];
  tags: string[];
  title: string | null;
  description: string | null;
  thumbnail: Thumbnail;
  hasCaptions: boolean;
  hasMetadata: boolean;
  /** Limitations that follow from the file itself, whatever the engine. */
  limitations: string[];
}

/** Arranges extracted evidence into segments with descriptions, tags and evidence spans. */
export function assemble(a: AssembleInput): Assembled {
  const { probe, filename } = a.input;
  const ownTags = containerTags(probe.tags);
  const metadata = metadataEvidence(probe.tags, probe.duration);

  const cover = coverArtThumbnail(probe);
  const thumbnail: Thumbnail = cover
    ? cover.thumbnail
    : a.frameThumbnail
      ? {
          contentType: a.frameThumbnail.contentType,
          bytes: a.frameThumbnail.bytes,
          source: "frame",
        }
      : posterThumbnail(probe, filename);
  const thumbnailSpan: EvidenceSpan | null = cover
    ? cover.span
    : a.frameThumbnail
      ? {
          kind: "thumbnail",
          start: a.frameThumbnail.time,
          end: a.frameThumbnail.time,
          text: `Video frame at ${a.frameThumbnail.time}s used as the thumbnail.`,
          source: "frame",
        }
      : null;
  const thumbnailSegment = thumbnailSpan ? segmentAt(a.bounds, thumbnailSpan.start) : -1;

  const texts = [...a.captions.spans, ...a.speech];
  const framesOf = new Map<number, FrameScene[]>();
  for (const scene of [...a.scenes].sort((x, y) => x.time - y.time)) {
    const at = segmentAt(a.bounds, scene.time);
    framesOf.set(at, [...(framesOf.get(at) ?? []), scene]);
  }
  const screensOf = new Map<number, FrameText[]>();
  for (const screen of [...(a.screens ?? [])].sort((x, y) => x.time - y.time)) {
    if (screen.lines.length === 0) continue;
    const at = segmentAt(a.bounds, screen.time);
    screensOf.set(at, [...(screensOf.get(at) ?? []), screen]);
  }
  const segments = a.bounds.map((range, index): IndexSegment => {
    const inside = textsInSegment(texts, range);
    const transcript = transcriptOf(inside);
    const frames = framesOf.get(index) ?? [];
    const screens = screensOf.get(index) ?? [];
    const evidence: EvidenceSpan[] = [];
    if (index === 0) evidence.push(...metadata);
    if (thumbnailSpan && index === thumbnailSegment) evidence.push(thumbnailSpan);
    for (const scene of frames) {
      const at = { start: scene.time, end: scene.time, source: scene.source };
      evidence.push({ kind: "scene", text: scene.description, ...at });
      for (const line of screenLines(scene.visibleText))
        evidence.push({ kind: "ocr", text: line, ...at });
    }
    for (const screen of screens) {
      const at = { start: screen.time, end: screen.time, source: screen.source };
      for (const line of screen.lines) evidence.push({ kind: "ocr", text: line, ...at });
    }
    for (const t of inside) {
      evidence.push({
        kind: "transcript",
        start: t.start,
        end: t.end,
        text: t.text,
        source: t.source,
      });
    }
    return {
      index,
      start: range.start,
      end: range.end,
      sceneDescription: describeSegment({
        range,
        frames,
        screens,
        transcript,
        emptyNote: a.emptyNote,
      }),
      tags: unique([
        ...frames.flatMap((scene) => scene.tags),
        ...mentionedTags(ownTags, transcript.text),
        ...languageTags(inside.map((t) => t.language)),
      ]),
      transcript: transcript.text,
      evidence,
    };
  });

  const hasCaptions = a.captions.spans.length > 0;
  const hasMetadata = metadata.length > 0;
  const limitations: string[] = [];
  if (!hasCaptions) limitations.push("no-timed-text");
  if (a.captions.outsideDuration > 0) limitations.push("cues-outside-duration");
  if (!hasMetadata) limitations.push("no-container-metadata");
  if (thumbnail.source === "poster") limitations.push("thumbnail-generated-poster");

  const title = probe.tags.title?.trim();
  const description = probe.tags.description?.trim();
  return {
    segments: segments.map(boundSegment),
    tags: unique([
      ...ownTags,
      ...languageTags([...a.captions.spans.map((s) => s.language), ...a.speechLanguages]),
      ...a.detectedTags,
    ]).slice(0, SEGMENT_BOUNDS.videoTags),
    title: title ? cutText(title, SEGMENT_BOUNDS.titleChars) : null,
    description: description ? cutText(description, SEGMENT_BOUNDS.videoDescriptionChars) : null,
    thumbnail,
    hasCaptions,
    hasMetadata,
    limitations,
  };
}

/** Index of the segment holding time `t` (the last one for `t` at or past the end). */
export function segmentAt(bounds: readonly TimeRange[], t: number): number {
  const i = bounds.findIndex((b) => t >= b.start && t < b.end);
  return i >= 0 ? i : Math.max(0, bounds.length - 1);
}

/** Limitations sorted and once each, so equal inputs give equal outputs. */
export function finalLimitations(values: Iterable<string>): string[] {
  return [...new Set(values)].sort();
}
