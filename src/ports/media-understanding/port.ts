import type { MediaProbe, RangeSource } from "../../services/media/types";

/** Kinds of evidence a segment can carry (spec section 2.5: transcript, OCR, scene, thumbnail). */
export type EvidenceKind = "transcript" | "ocr" | "scene" | "thumbnail" | "metadata";

/** A span of the video that supports what a segment says. Times in seconds. */
export interface EvidenceSpan {
  kind: EvidenceKind;
  start: number;
  end: number;
  /** The text the span holds (the cue, the OCR line, the description). */
  text: string;
  /** Where it came from, e.g. `text-track:0`, `container-tags`, `whisper`, `vision`. */
  source: string;
}

/** One time segment of the video index. */
export interface IndexSegment {
  /** 0-based, in time order. */
  index: number;
  start: number;
  end: number;
  /** What happens in the segment, said only from evidence. */
  sceneDescription: string;
  tags: string[];
  /** The words spoken or captioned in the segment ("" when none). */
  transcript: string;
  evidence: EvidenceSpan[];
}

/** Which kinds of evidence the engine actually extracted for the whole video. */
export interface ExtractionCoverage {
  transcript: boolean;
  ocr: boolean;
  scene: boolean;
  metadata: boolean;
}

/** Share of a video's duration an extraction must inspect before an absence there counts. */
export const COMPLETE_SHARE = 0.95;

/** How much of the video one source of transcript text inspected, and in which language. */
export interface TextExtent {
  /** `captions`: a text track (its cue span); `speech`: audio transcribed by speech to text. */
  origin: "captions" | "speech";
  /** Evidence source of its spans, e.g. `text-track:0:eng`, `whisper`. */
  source: string;
  /** ISO 639-1 where known (tagged, or detected from the text); null when it cannot be told. */
  language: string | null;
  /** Seconds of the video it inspected, and their share of the duration (0-1). */
  seconds: number;
  share: number;
}

/** Seconds of the video a kind of evidence inspected, and their share of the duration (0-1). */
export interface KindExtent {
  seconds: number;
  share: number;
}

/** What each evidence kind actually inspected, measured (docs/media-understanding.md). */
export interface ExtractionExtent {
  transcript: TextExtent[];
  scene: KindExtent;
  ocr: KindExtent;
}

/** The understanding of one video: what the index is built from. */
export interface VideoUnderstanding {
  /** The engine that produced it, e.g. `local-media@2`, `workers-ai@2`. */
  engine: string;
  segments: IndexSegment[];
  /** Video-level tags (container keywords, title words, detected labels). */
  tags: string[];
  title: string | null;
  description: string | null;
  thumbnail: { contentType: string; bytes: Uint8Array; source: "cover-art" | "poster" | "frame" };
  coverage: ExtractionCoverage;
  /** What each kind inspected; `coverage` flags are these shares at or above COMPLETE_SHARE. */
  extent: ExtractionExtent;
  /** Honest notes about what could not be extracted, e.g. `no-timed-text`. */
  limitations: string[];
}

/** What the engine is given about the video. */
export interface UnderstandInput {
  videoId: string;
  filename: string;
  contentType: string;
  /** The object key of the bytes in the media bucket. */
  objectKey: string;
  probe: MediaProbe;
  source: RangeSource;
}

/** Turns a probed video into segments with descriptions, tags and evidence. */
export interface MediaUnderstanding {
  understand(input: UnderstandInput): Promise<VideoUnderstanding>;
}
