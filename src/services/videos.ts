import type { VideoRow } from "../db/repos/videos";

/** Whether processing of a video has ended, one way or the other. */
export function isFinal(video: Pick<VideoRow, "status">): boolean {
  return video.status === "completed" || video.status === "failed";
}
