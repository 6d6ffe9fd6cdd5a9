import type { MediaProbe, RangeSource } from "../../domain/media";

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

/** The understanding of one video: what the index is built from. */
export interface VideoUnderstanding {
  /** The engine that produced it, e.g. `local-media@1`, `workers-ai@1`. */
  engine: string;
  segments: IndexSegment[];
  /** Video-level tags (container keywords, title words, detected labels). */
  tags: string[];
  title: string | null;
  description: string | null;
  thumbnail: { contentType: string; bytes: Uint8Array; source: "cover-art" | "poster" | "frame" };
  coverage: ExtractionCoverage;
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
