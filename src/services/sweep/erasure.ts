import { unerasedVideos } from "../../db/repos/video-erasure";
import { staleDeletingWorkspaces } from "../../db/repos/workspace-erasure";
import {
  causedBy,
  type EraseVideoMessage,
  type EraseWorkspaceMessage,
} from "../../lib/queue-messages";
import type { Deps } from "../deps";
import { SWEEP_BATCH, type SweepClock } from "./lease";

/** What one sweep did to deleted videos (`resent`) and deleting workspaces (`workspaces`). */
export interface ErasureSweep {
  resent: string[];
  workspaces: string[];
}

/**
 * Re-sends the erasure of deleting workspaces and deleted videos that made no progress within
 * the lease: the message was lost, the consumer crashed part way, or it waited for work in
 * flight to stop.
 * Erasure is idempotent, so a re-send resumes it; there is no limit on tries, since giving up
 * would keep data the customer asked to erase.
 */
export async function sweepErasures(
  deps: Pick<Deps, "db" | "queues">,
  clock: SweepClock,
): Promise<ErasureSweep> {
  const done: ErasureSweep = { resent: [], workspaces: [] };
  const window = { staleBefore: clock.staleBefore, limit: SWEEP_BATCH };
  const workspaces = await staleDeletingWorkspaces(deps.db, window);
  if (workspaces.length > 0) {
    await deps.queues.processing.sendBatch(
      workspaces.map((workspace) => ({
        body: {
          type: "erase-workspace",
          workspace_id: workspace.id,
        } satisfies EraseWorkspaceMessage,
      })),
    );
    done.workspaces.push(...workspaces.map((workspace) => workspace.id));
  }
  const pending = await unerasedVideos(deps.db, window);
  if (pending.length === 0) return done;
  await deps.queues.processing.sendBatch(
    pending.map((video) => ({
      body: {
        type: "erase-video",
        video_id: video.id,
        workspace_id: video.workspaceId,
        ...causedBy(video.workRequestId),
      } satisfies EraseVideoMessage,
    })),
  );
  done.resent.push(...pending.map((video) => video.id));
  return done;
}
