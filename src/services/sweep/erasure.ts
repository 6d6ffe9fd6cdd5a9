import { unerasedVideos } from "../../db/repos/video-erasure";
import { causedBy, type EraseVideoMessage } from "../../lib/queue-messages";
import type { Deps } from "../deps";
import { SWEEP_BATCH, type SweepClock } from "./lease";

/** What one sweep did to deleted videos. */
export interface ErasureSweep {
  resent: string[];
}

/**
 * Re-sends the erasure of deleted videos whose erasure made no progress within the lease: the
 * message was lost, the consumer crashed part way, or it waited for work in flight to stop.
 * Erasure is idempotent, so a re-send resumes it; there is no limit on tries, since giving up
 * would keep data the customer asked to erase.
 */
export async function sweepErasures(
  deps: Pick<Deps, "db" | "queues">,
  clock: SweepClock,
): Promise<ErasureSweep> {
  const done: ErasureSweep = { resent: [] };
  const pending = await unerasedVideos(deps.db, {
    staleBefore: clock.staleBefore,
    limit: SWEEP_BATCH,
  });
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
