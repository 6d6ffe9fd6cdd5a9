import type { VideoRow } from "../db/repos/videos";
import type { VideoMedia } from "../domain/video";
import type { Ports } from "../ports";

/** Signed media URLs live this long. */
export const MEDIA_URL_TTL_MS = 60 * 60 * 1000;

/** The video's stored media facts, typed. */
export function videoMedia(video: Pick<VideoRow, "media">): VideoMedia {
  return video.media ?? {};
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
