import { runBatch } from "../../db/client";
import { markVideoDeletedStatement } from "../../db/repos/video-erasure";
import { findVideo } from "../../db/repos/videos";
import { deleteLeaseStatement } from "../../db/repos/work-leases";
import { notFound } from "../../errors/api-error";
import { nowIso } from "../../lib/clock";
import { videoServedKeys } from "../../lib/object-keys";
import type { EraseVideoMessage } from "../../lib/queue-messages";
import type { Deps } from "../deps";

/**
 * DELETE /videos/{id}: aborts an upload still open, marks the video deleted in one statement
 * (no read path sees it from then on), deletes the objects signed URLs point at (a signed URL
 * cannot be revoked, only its object), and hands the rest of erasure to the processing queue.
 * A lost send is found again by the sweep (`sweep/erasure.ts`) from the row alone, which names
 * `requestId` as the request whose work erasure is.
 */
export async function deleteVideo(
  deps: Pick<Deps, "db" | "bucket" | "clock" | "queues" | "objects">,
  workspaceId: string,
  videoId: string,
  requestId: string,
): Promise<void> {
  const video = await findVideo(deps.db, workspaceId, videoId);
  if (!video) throw notFound("Video", videoId);
  // Answers not found for a video that never had a session (nothing to abort or forget).
  await deps.objects.uploadSessions.getByName(videoId).forget(workspaceId);
  // Only processing can still write a video's objects and rows (every write of it is guarded on
  // `processing`, but R2 writes come first): its lease makes erasure wait until the work
  // stops. Any other video's lease is stale bookkeeping and goes with the mark.
  await runBatch(deps.db, [
    markVideoDeletedStatement(deps.db, workspaceId, videoId, nowIso(deps.clock.now()), requestId),
    ...(video.status === "processing" ? [] : [deleteLeaseStatement(deps.db, videoId)]),
  ]);
  await deps.bucket.delete(videoServedKeys(videoId));
  await deps.queues.processing.send({
    type: "erase-video",
    video_id: videoId,
    workspace_id: workspaceId,
    request_id: requestId,
  } satisfies EraseVideoMessage);
}
