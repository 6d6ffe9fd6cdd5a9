import type { VideoRow } from "../../db/repos/videos";
import type { VideoMedia } from "../../domain/video";
import { thumbnailKeyOf } from "../../lib/object-keys";
import type { Ports } from "../../ports";

/** Signed media URLs live this long. */
export const MEDIA_URL_TTL_MS = 60 * 60 * 1000;

/** The video's stored media facts, typed. */
export function videoMedia(video: Pick<VideoRow, "media">): VideoMedia {
  return video.media ?? {};
}

/**
 * A signed, expiring URL of the video's thumbnail (the spec's Video section: present on the
 * single-video and complete responses). Until processing has stored the thumbnail, the URL answers
 * 404; a failed video that never got one has none, rather than a URL that points at nothing.
 */
export async function thumbnailUrl(
  ports: Ports,
  video: Pick<VideoRow, "id" | "media" | "status">,
  origin: string,
): Promise<string | undefined> {
  const stored = videoMedia(video).thumbnail?.key;
  if (stored === undefined && video.status === "failed") return undefined;
  const key = stored ?? thumbnailKeyOf(video.id);
  return ports.storage.presignGet(key, new Date(Date.now() + MEDIA_URL_TTL_MS), { origin });
}
