import type { VideoRow, VideoStatus } from "../../db/repos/videos";

/**
 * Statuses in which a video is still worked on. Every write of processing is conditional on
 * them, so of two deliveries of the same work (at least once delivery, sweep re-sends) only
 * one can end the video, and a late one cannot change a video that has ended.
 */
export const UNFINISHED: readonly VideoStatus[] = ["queued", "processing"];
/** Statuses in which only processing's own later steps may write. */
export const PROCESSING: readonly VideoStatus[] = ["processing"];

/** Whether processing of a video has ended, one way or the other. */
export function isFinal(video: Pick<VideoRow, "status">): boolean {
  return video.status === "completed" || video.status === "failed";
}
