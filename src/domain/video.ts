import type { ExtractionCoverage, ExtractionExtent } from "./evidence";

/** The facts processing stores about a video beyond its columns. */
export interface VideoMedia {
  container?: string;
  fps?: number;
  width?: number;
  height?: number;
  video_codec?: string;
  audio?: { codec: string; channels: number; sample_rate: number } | null;
  thumbnail?: { key: string; content_type: string; source: string };
  index_key?: string;
  engine?: string;
  /** Which evidence kinds the media engine extracted for the whole video. */
  coverage?: ExtractionCoverage;
  /** What each kind of evidence inspected: seconds, share of the duration, language. */
  extent?: ExtractionExtent;
  limitations?: string[];
  tags?: string[];
  /** The container's title, when it has one. */
  title?: string | null;
}

/**
 * How far processing has come at each stage, in percent: the `progress` a video shows.
 * Indexing (search text and vectors) takes the last stretch before `completed`.
 */
export const PROCESSING_PROGRESS = {
  /** Uploaded and queued; nothing read yet. */
  queued: 0,
  /** The processing consumer took the video. */
  started: 10,
  /** The container was probed: duration and frames are known, the windows planned. */
  probed: 30,
  /** Every planned window is understood (in between, the share of windows done). */
  windowsDone: 75,
  /** Segments, thumbnail and index document are stored; search indexing is next. */
  understood: 80,
  completed: 100,
} as const;
