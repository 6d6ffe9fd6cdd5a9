import { and } from "drizzle-orm";
import { runBatch } from "../../db/client";
import { insertEventStatement } from "../../db/repos/events";
import {
  awaitingErasure,
  eraseSegmentsStatements,
  eraseVideoRowsStatements,
  findTombstone,
  leaseActiveSince,
  markErasedStatement,
  segmentIdsPage,
  type Tombstone,
  touchStatement,
} from "../../db/repos/video-erasure";
import { workspaceIsLive } from "../../db/repos/workspaces";
import { nowIso } from "../../lib/clock";
import { videoPrefixes } from "../../lib/object-keys";
import type { EraseVideoMessage } from "../../lib/queue-messages";
import type { Deps } from "../deps";
import { leaseMs } from "../sweep/lease";

/**
 * Segments (and vectors) erased per step. Vectorize's deleteByIds takes 1,000 ids a call
 * (the adapter splits larger lists); each step is recorded, so a crash resumes at the next.
 */
const SEGMENTS_PER_STEP = 1_000;
/** R2's list returns at most 1,000 keys, and delete takes at most 1,000 (Workers API reference). */
const KEYS_PER_PAGE = 1_000;

/** The `video.deleted` event's data: the id and when, never what the video held. */
export interface VideoDeletedData {
  video: { id: string; status: "deleted"; deleted_at: string; erased_at: string };
}

/**
 * Erases a deleted video: its vectors and segments a step at a time, the embedder's statistics,
 * every R2 object under its prefixes, its remaining D1 rows; then, in one batch, marks it erased
 * and writes `video.deleted` (unless its workspace is being deleted). Each step is idempotent, so a redelivery or the sweep resumes a
 * crashed erasure. Work still renewing the video's lease may yet write, so erasure waits for
 * it to stop (the sweep comes back a lease later).
 */
export async function eraseVideo(
  deps: Pick<Deps, "db" | "bucket" | "ports" | "clock" | "config">,
  message: EraseVideoMessage,
): Promise<"erased" | "deferred" | "skipped"> {
  const { db } = deps;
  const video = await findTombstone(db, message.video_id);
  if (!video || video.workspaceId !== message.workspace_id || video.erasedAt !== null) {
    return "skipped";
  }
  const since = nowIso(deps.clock.now() - leaseMs(deps.config));
  if (await leaseActiveSince(db, video.id, since)) return "deferred";
  await eraseVectorsAndSegments(deps, video);
  await deps.ports.embedder.forget(video.workspaceId, video.id);
  for (const prefix of videoPrefixes(video.id)) await deleteUnder(deps, video.id, prefix);
  const at = nowIso(deps.clock.now());
  const data: VideoDeletedData = {
    video: { id: video.id, status: "deleted", deleted_at: video.deletedAt ?? at, erased_at: at },
  };
  await runBatch(db, [
    ...eraseVideoRowsStatements(db, video.id),
    // Guarded, and before the mark it depends on: two erasures at once write one event. A
    // deleting workspace's videos announce nothing: its webhooks are being erased with it.
    insertEventStatement(
      db,
      {
        workspaceId: video.workspaceId,
        type: "video.deleted",
        data: { ...data },
        requestId: video.workRequestId,
      },
      and(awaitingErasure(video.id), workspaceIsLive(video.workspaceId)),
    ),
    markErasedStatement(db, video.id, at),
  ]);
  return "erased";
}

async function eraseVectorsAndSegments(
  deps: Pick<Deps, "db" | "ports" | "clock">,
  video: Tombstone,
): Promise<void> {
  for (;;) {
    const ids = await segmentIdsPage(deps.db, video.id, SEGMENTS_PER_STEP);
    if (ids.length === 0) return;
    await deps.ports.vectorIndex.delete(video.workspaceId, ids);
    await runBatch(
      deps.db,
      eraseSegmentsStatements(deps.db, video.id, ids, nowIso(deps.clock.now())),
    );
  }
}

async function deleteUnder(
  deps: Pick<Deps, "db" | "bucket" | "clock">,
  videoId: string,
  prefix: string,
): Promise<void> {
  // Each page is deleted before the next list, so listing from the start finds what is left.
  for (;;) {
    const page = await deps.bucket.list({ prefix, limit: KEYS_PER_PAGE });
    if (page.objects.length === 0) return;
    await deps.bucket.delete(page.objects.map((object) => object.key));
    await runBatch(deps.db, [touchStatement(deps.db, videoId, nowIso(deps.clock.now()))]);
    if (!page.truncated) return;
  }
}
