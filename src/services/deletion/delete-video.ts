import { runBatch } from "../../db/client";
import { bytesRemovedStatement } from "../../db/repos/usage";
import {
  dropIdleLeaseStatement,
  markVideoDeletedStatement,
  videoDeletedAuditStatement,
} from "../../db/repos/video-erasure";
import { findVideo, type StoredVideoRow } from "../../db/repos/videos";
import type { AuditedBy } from "../../domain/audit";
import { dayOf } from "../../domain/usage";
import { notFound } from "../../errors/api-error";
import { nowIso } from "../../lib/clock";
import { videoServedKeys } from "../../lib/object-keys";
import { causedBy, type EraseVideoMessage } from "../../lib/queue-messages";
import type { Deps } from "../deps";

/**
 * DELETE /videos/{id} and the retention sweep: marks the video deleted (`tombstoneVideo`),
 * recorded in the audit trail as `by`'s, and hands the rest of erasure to the processing queue.
 * A lost send is found again by the sweep (`sweep/erasure.ts`) from the row alone.
 */
export async function deleteVideo(
  deps: Pick<Deps, "db" | "bucket" | "clock" | "queues" | "objects">,
  workspaceId: string,
  videoId: string,
  by: AuditedBy,
): Promise<void> {
  const video = await findVideo(deps.db, workspaceId, videoId);
  if (!video) throw notFound("Video", videoId);
  await tombstoneVideo(deps, workspaceId, video, by);
  await deps.queues.processing.send({
    type: "erase-video",
    video_id: videoId,
    workspace_id: workspaceId,
    ...causedBy(by.requestId),
  } satisfies EraseVideoMessage);
}

/**
 * Aborts an upload still open, marks the video deleted in one statement (no read path sees it
 * from then on) and deletes the objects signed URLs point at (a signed URL cannot be revoked,
 * only its object). The mark's batch counts the video's source as no longer stored, once.
 * What is left is erased by `eraseVideo`. Shared by the deletion of one video (`audited`: its
 * entry, with its request, goes in the mark's batch) and of a whole workspace (null: no
 * request, and no entry, as the workspace's audit trail is erased with it).
 */
export async function tombstoneVideo(
  deps: Pick<Deps, "db" | "bucket" | "clock" | "objects">,
  workspaceId: string,
  video: Pick<StoredVideoRow, "id">,
  audited: AuditedBy | null,
): Promise<void> {
  const requestId = audited?.requestId ?? null;
  // Answers not found for a video that never had a session (nothing to abort or forget).
  await deps.objects.uploadSessions.getByName(video.id).forget(workspaceId);
  // Only processing can still write a video's objects and rows (every write of it is guarded on
  // `processing`, but R2 writes come first): its lease makes erasure wait until the work
  // stops. Any other video's lease is stale bookkeeping and goes with the mark. Which one it
  // is, the row says when the batch runs, not when it was read: processing may claim it since.
  const at = nowIso(deps.clock.now());
  await runBatch(deps.db, [
    dropIdleLeaseStatement(deps.db, video.id),
    ...(audited ? [videoDeletedAuditStatement(deps.db, workspaceId, video.id, audited)] : []),
    bytesRemovedStatement(deps.db, workspaceId, video.id, dayOf(at)),
    markVideoDeletedStatement(deps.db, workspaceId, video.id, at, requestId),
  ]);
  await deps.bucket.delete(videoServedKeys(video.id));
}
