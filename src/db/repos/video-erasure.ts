import { and, asc, eq, exists, gt, inArray, isNull, lt, ne, not, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { AuditedBy } from "../../domain/audit";
import { chunks, IDS_PER_STATEMENT } from "../../lib/chunks";
import type { Database } from "../client";
import {
  mediaWindows,
  segmentText,
  videoSegments,
  videos,
  videoUsage,
  workLeases,
} from "../schema";
import { auditStatement } from "./audit-log";
import { type StoredVideoRow, videoIsIn } from "./videos";

/** A deleted video's tombstone: what is kept once everything else is erased. */
export type Tombstone = Pick<
  StoredVideoRow,
  "id" | "workspaceId" | "deletedAt" | "erasedAt" | "updatedAt" | "workRequestId"
>;

const TOMBSTONE = {
  id: videos.id,
  workspaceId: videos.workspaceId,
  deletedAt: videos.deletedAt,
  erasedAt: videos.erasedAt,
  updatedAt: videos.updatedAt,
  workRequestId: videos.workRequestId,
};

/** The condition of a deletion: the video is the workspace's and not deleted yet. */
function deletable(workspaceId: string, id: string): SQL | undefined {
  return and(eq(videos.id, id), eq(videos.workspaceId, workspaceId), ne(videos.status, "deleted"));
}

/**
 * The audit entry of a video's deletion, with the status it had; batch it before
 * `markVideoDeletedStatement`, whose condition it shares, so only the deletion that marks the
 * row is recorded.
 */
export function videoDeletedAuditStatement(
  db: Database,
  workspaceId: string,
  id: string,
  by: AuditedBy,
): BatchItem<"sqlite"> {
  const row = db.select({ one: sql`1` }).from(videos).where(deletable(workspaceId, id));
  return auditStatement(
    db,
    {
      workspaceId,
      action: "video.deleted",
      target: { type: "video", id },
      changes: {
        status: {
          before: sql`(select ${videos.status} from ${videos} where ${videos.id} = ${id})`,
        },
      },
    },
    by,
    exists(row),
  );
}

/**
 * Marks a video of a workspace deleted, unless it already is: from this statement on no read
 * path sees it, and processing's guarded writes stop. The filename and measurements go at once;
 * the row stays as a tombstone so runs can refuse the id by name. Erasure is the work of
 * `requestId` from here on.
 */
export function markVideoDeletedStatement(
  db: Database,
  workspaceId: string,
  id: string,
  at: string,
  requestId: string | null,
) {
  return db
    .update(videos)
    .set({
      status: "deleted",
      deletedAt: at,
      updatedAt: at,
      workRequestId: requestId,
      filename: "",
      duration: null,
      frameCount: null,
      media: null,
      error: null,
    })
    .where(deletable(workspaceId, id));
}

/**
 * Forgets the lease of a video that no work is processing, as the row stands when the statement
 * runs (batch it before the mark): processing that claimed the video after the deletion read
 * it keeps its lease, so erasure waits for it.
 */
export function dropIdleLeaseStatement(db: Database, videoId: string) {
  return db
    .delete(workLeases)
    .where(and(eq(workLeases.subjectId, videoId), not(videoIsIn(videoId, ["processing"]))));
}

/** A deleted video's tombstone (any workspace), or null when the video is not deleted. */
export async function findTombstone(db: Database, id: string): Promise<Tombstone | null> {
  const rows = await db
    .select(TOMBSTONE)
    .from(videos)
    .where(and(eq(videos.id, id), eq(videos.status, "deleted")))
    .limit(1);
  return rows[0] ?? null;
}

/** Which of these ids are deleted videos of the workspace. */
export async function deletedVideoIds(
  db: Database,
  workspaceId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  const found = new Set<string>();
  for (const slice of chunks([...new Set(ids)], IDS_PER_STATEMENT)) {
    const rows = await db
      .select({ id: videos.id })
      .from(videos)
      .where(
        and(
          eq(videos.workspaceId, workspaceId),
          inArray(videos.id, slice),
          eq(videos.status, "deleted"),
        ),
      );
    for (const row of rows) found.add(row.id);
  }
  return found;
}

/** Deleted videos whose erasure has not completed and made no progress since `staleBefore`. */
export async function unerasedVideos(
  db: Database,
  window: { staleBefore: string; limit: number },
): Promise<Tombstone[]> {
  return db
    .select(TOMBSTONE)
    .from(videos)
    .where(
      and(
        eq(videos.status, "deleted"),
        isNull(videos.erasedAt),
        lt(videos.updatedAt, window.staleBefore),
      ),
    )
    .orderBy(asc(videos.updatedAt))
    .limit(window.limit);
}

/** Whether work on the video renewed its lease after `since` (a consumer may still write). */
export async function leaseActiveSince(db: Database, id: string, since: string): Promise<boolean> {
  const rows = await db
    .select({ id: workLeases.subjectId })
    .from(workLeases)
    .where(and(eq(workLeases.subjectId, id), gt(workLeases.activeFrom, since)))
    .limit(1);
  return rows.length > 0;
}

/** Up to `limit` of a video's segment ids (they are its vector ids too). */
export async function segmentIdsPage(db: Database, videoId: string, limit: number) {
  const rows = await db
    .select({ id: videoSegments.id })
    .from(videoSegments)
    .where(eq(videoSegments.videoId, videoId))
    .orderBy(asc(videoSegments.position))
    .limit(limit);
  return rows.map((row) => row.id);
}

/** Statements erasing these segments and their full-text rows, and recording progress. */
export function eraseSegmentsStatements(
  db: Database,
  videoId: string,
  segmentIds: readonly string[],
  at: string,
): BatchItem<"sqlite">[] {
  const statements: BatchItem<"sqlite">[] = [];
  for (const slice of chunks([...segmentIds], IDS_PER_STATEMENT)) {
    statements.push(
      db
        .delete(segmentText)
        .where(and(eq(segmentText.videoId, videoId), inArray(segmentText.segmentId, slice))),
      db
        .delete(videoSegments)
        .where(and(eq(videoSegments.videoId, videoId), inArray(videoSegments.id, slice))),
    );
  }
  statements.push(touchStatement(db, videoId, at));
  return statements;
}

/** Records erasure progress, so the sweep leaves an erasure that is moving alone. */
export function touchStatement(db: Database, videoId: string, at: string) {
  return db
    .update(videos)
    .set({ updatedAt: at })
    .where(and(eq(videos.id, videoId), eq(videos.status, "deleted")));
}

/**
 * Statements erasing the video's remaining rows: windows, full-text rows, its own usage (the
 * workspace's rollup keeps what it counted), lease.
 */
export function eraseVideoRowsStatements(db: Database, videoId: string): BatchItem<"sqlite">[] {
  return [
    db.delete(mediaWindows).where(eq(mediaWindows.videoId, videoId)),
    db.delete(segmentText).where(eq(segmentText.videoId, videoId)),
    db.delete(videoSegments).where(eq(videoSegments.videoId, videoId)),
    db.delete(videoUsage).where(eq(videoUsage.videoId, videoId)),
    db.delete(workLeases).where(eq(workLeases.subjectId, videoId)),
  ];
}

/** The condition of the last erasure batch: the video is deleted and not yet erased. */
export function awaitingErasure(videoId: string): SQL {
  return sql`exists (select 1 from ${videos} where ${videos.id} = ${videoId} and ${videos.status} = 'deleted' and ${videos.erasedAt} is null)`;
}

/** Marks erasure complete; batch it after the event it guards. */
export function markErasedStatement(db: Database, videoId: string, at: string) {
  return db
    .update(videos)
    .set({ erasedAt: at, updatedAt: at })
    .where(and(eq(videos.id, videoId), eq(videos.status, "deleted"), isNull(videos.erasedAt)));
}
