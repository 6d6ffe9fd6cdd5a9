import type { VideoRow } from "../db/repos/videos";
import type { Ports } from "../ports";
import type { ExtractionCoverage, ExtractionExtent } from "../ports/media-understanding/port";

/** Signed media URLs live this long. */
export const MEDIA_URL_TTL_MS = 60 * 60 * 1000;

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

/** The video's stored media facts, typed. */
export function videoMedia(video: Pick<VideoRow, "media">): VideoMedia {
  return (video.media ?? {}) as VideoMedia;
}

/**
 * Where a video's thumbnail is stored, fixed before processing makes it (its content type is
 * kept on the object), so the URL can be given from the moment the upload completes.
 */
export function thumbnailKeyOf(videoId: string): string {
  return `videos/${videoId}/thumbnail`;
}

/**
 * A signed, expiring URL of the video's thumbnail (spec §2.3: present on the single-video
 * and complete responses). Until processing has stored the thumbnail, the URL answers 404.
 */
export async function thumbnailUrl(
  ports: Ports,
  video: Pick<VideoRow, "id" | "media">,
  origin: string,
): Promise<string> {
  const key = videoMedia(video).thumbnail?.key ?? thumbnailKeyOf(video.id);
  return ports.storage.presignGet(key, new Date(Date.now() + MEDIA_URL_TTL_MS), { origin });
}
