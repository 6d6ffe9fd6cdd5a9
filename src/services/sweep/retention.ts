import {
  type RetentionDue,
  videosPastRetention,
  workspacesPastRetention,
} from "../../db/repos/video-retention";
import { RETENTION_ACTOR } from "../../domain/audit";
import { deleteVideo } from "../deletion/delete-video";
import type { Deps } from "../deps";
import { SWEEP_BATCH, type SweepClock } from "./lease";

/** What one sweep did to videos past their workspace's retention. */
export interface RetentionSweep {
  deleted: string[];
}

/**
 * Deletes videos older than their workspace's `retention_days` through the same path as
 * DELETE /videos/{id}, so they are erased and announced (`video.deleted`) alike. At most
 * SWEEP_BATCH videos a sweep, shared evenly by the workspaces that have some due (what one
 * leaves of its share goes to the others), so one workspace's backlog (a retention just
 * shortened) does not hold the others' back. What is left is found again by the next sweep:
 * a video is due as long as it is not deleted.
 */
export async function sweepRetention(deps: Deps, clock: SweepClock): Promise<RetentionSweep> {
  const done: RetentionSweep = { deleted: [] };
  let budget = SWEEP_BATCH;
  let open = await workspacesPastRetention(deps.db, { now: clock.now, limit: SWEEP_BATCH });
  while (budget > 0 && open.length > 0) {
    const share = Math.ceil(budget / open.length);
    const more: RetentionDue[] = [];
    for (const workspace of open) {
      const asked = Math.min(share, budget);
      if (asked === 0) break;
      const ids = await videosPastRetention(deps.db, workspace, asked);
      budget -= ids.length;
      if (ids.length === asked) more.push(workspace);
      for (const id of ids) await deleteDue(deps, workspace.workspaceId, id, done);
    }
    open = more;
  }
  return done;
}

async function deleteDue(
  deps: Deps,
  workspaceId: string,
  videoId: string,
  done: RetentionSweep,
): Promise<void> {
  try {
    await deleteVideo(deps, workspaceId, videoId, { actor: RETENTION_ACTOR, requestId: null });
    done.deleted.push(videoId);
  } catch (error) {
    // One video that cannot be deleted now (a user's DELETE won the race, a failed call)
    // must not keep the others; a video not marked deleted is due again next sweep.
    deps.log.error({ sweep: videoId, retention: true, error: String(error) });
  }
}
