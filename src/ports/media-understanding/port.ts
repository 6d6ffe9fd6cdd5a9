import type { EvidenceSpan, ExtractionCoverage, ExtractionExtent } from "../../domain/evidence";
import type { MediaProbe, RangeSource } from "../../domain/media";

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
