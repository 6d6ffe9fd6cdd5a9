import type { ExtractionCoverage } from "./evidence";

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
  limitations?: string[];
  tags?: string[];
  /** The container's title, when it has one. */
  title?: string | null;
}
