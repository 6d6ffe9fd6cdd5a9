import type { VideoRow } from "../../db/repos/videos";
import { type Stale, staleVideos, upsertLeaseStatement } from "../../db/repos/work-leases";
import type { StoredError } from "../../domain/async-errors";
import { PROCESSING_PROGRESS } from "../../domain/video";
import { asyncError } from "../../errors/async-codes";
import {
  causedBy,
  type IndexVideoMessage,
  type ProcessVideoMessage,
} from "../../lib/queue-messages";
import { type Deps, withRequest } from "../deps";
import { failVideo } from "../processing/process-video";
import { resumePlannedVideo } from "../processing/window-plan";
import { MAX_SWEEP_TRIES, SWEEP_BATCH, type SweepClock } from "./lease";

/** Progress a video has once its index is stored; from there only indexing is left. */
const INDEXED_PROGRESS = PROCESSING_PROGRESS.understood;

const STALLED: StoredError = asyncError("processing-stalled", {
  detail: `Processing made no progress after ${MAX_SWEEP_TRIES} restarts.`,
});

/** What one sweep did to videos. */
export interface VideoSweep {
  resent: string[];
  failed: string[];
}

/** Whether the video's upload was completed (a queued video may still be uploading). */
async function uploadCompleted(
  deps: Pick<Deps, "objects">,
  videoId: string,
  workspaceId: string,
): Promise<boolean> {
  const result = await deps.objects.uploadSessions.getByName(videoId).view(workspaceId);
  return result.ok && result.session.state === "completed";
}

/**
 * Re-sends the work of videos that made no progress within the lease: processing for a
 * completed upload whose message was lost or whose consumer died, indexing for a video whose
 * index is stored. After MAX_SWEEP_TRIES re-sends the video fails with `processing-stalled`.
 */
export async function sweepVideos(deps: Deps, clock: SweepClock): Promise<VideoSweep> {
  const { db } = deps;
  const done: VideoSweep = { resent: [], failed: [] };
  for (const stale of await staleVideos(db, { ...clock, limit: SWEEP_BATCH })) {
    // One item that cannot be handled must not keep the others stranded.
    await sweepVideo(deps, clock, stale, done).catch((error: unknown) =>
      withRequest(deps, stale.row.workRequestId).log.error({
        sweep: stale.row.id,
        error: String(error),
      }),
    );
  }
  return done;
}

async function sweepVideo(
  deps: Deps,
  clock: SweepClock,
  { row, attempts, pickedUp }: Stale<VideoRow>,
  done: VideoSweep,
): Promise<void> {
  const { db } = deps;
  if (pickedUp && attempts >= MAX_SWEEP_TRIES) {
    await failVideo(deps, row, STALLED);
    done.failed.push(row.id);
    return;
  }
  const lease = { subjectId: row.id, kind: "video" as const, activeFrom: clock.now };
  if (
    row.status === "queued" &&
    attempts === 0 &&
    !(await uploadCompleted(deps, row.id, row.workspaceId))
  ) {
    // Still uploading (its session expires it) or never uploaded: look again a lease later.
    await upsertLeaseStatement(db, { ...lease, attempts });
    return;
  }
  // The attempt is recorded before the send: a send that fails is retried by a later sweep. A
  // re-send never picked up (its message waits behind a backlog) is not a failed attempt.
  await upsertLeaseStatement(db, {
    ...lease,
    attempts: pickedUp ? attempts + 1 : attempts,
    resentAt: clock.now,
  });
  await resendVideoWork(deps, row);
  done.resent.push(row.id);
}

/**
 * Sends a video's outstanding work again, from where it stands: indexing once its index is
 * stored; its pending windows (or assembly, when none is pending) once it is planned;
 * processing from the start otherwise.
 */
async function resendVideoWork(deps: Deps, row: VideoRow): Promise<void> {
  const message = {
    video_id: row.id,
    workspace_id: row.workspaceId,
    ...causedBy(row.workRequestId),
  };
  if (row.progress >= INDEXED_PROGRESS) {
    await deps.queues.indexing.send({
      type: "index-video",
      ...message,
    } satisfies IndexVideoMessage);
    return;
  }
  if (await resumePlannedVideo(deps, row)) return;
  await deps.queues.processing.send({
    type: "process-video",
    ...message,
  } satisfies ProcessVideoMessage);
}
