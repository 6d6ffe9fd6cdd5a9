import { and, asc, eq, exists, isNotNull, isNull, lt, type SQL, sql } from "drizzle-orm";
import type { Database } from "../client";
import { videos, workspaces } from "../schema";
import { notDeleted } from "./videos";

/** A workspace with videos past its retention, and the instant its videos must be younger than. */
export interface RetentionDue {
  workspaceId: string;
  /** ISO time: a video created before it is past retention. */
  createdBefore: string;
}

/**
 * `now` less the workspace's retention days, in the ISO form `created_at` is stored in, so
 * that the comparison is one of strings the index is sorted by. SQLite keeps times to the
 * millisecond, so the instant is exact.
 */
function retentionCutoff(now: string): SQL<string> {
  return sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', ${now}, '-' || ${workspaces.retentionDays} || ' days')`;
}

/**
 * Up to `limit` workspaces that set a retention and hold a video not yet deleted that was
 * created before `now` less it, by id.
 */
export async function workspacesPastRetention(
  db: Database,
  window: { now: string; limit: number },
): Promise<RetentionDue[]> {
  const cutoff = retentionCutoff(window.now);
  const overdue = db
    .select({ id: videos.id })
    .from(videos)
    .where(and(eq(videos.workspaceId, workspaces.id), notDeleted, lt(videos.createdAt, cutoff)));
  return (
    db
      .select({ workspaceId: workspaces.id, createdBefore: cutoff })
      .from(workspaces)
      // A deleting workspace's erasure takes its videos; retention leaves them to it.
      .where(
        and(isNotNull(workspaces.retentionDays), isNull(workspaces.deletedAt), exists(overdue)),
      )
      .orderBy(asc(workspaces.id))
      .limit(window.limit)
  );
}

/** Up to `limit` ids of the workspace's videos not yet deleted created before the cutoff, oldest first. */
export async function videosPastRetention(
  db: Database,
  due: RetentionDue,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .select({ id: videos.id })
    .from(videos)
    .where(
      and(
        eq(videos.workspaceId, due.workspaceId),
        notDeleted,
        lt(videos.createdAt, due.createdBefore),
      ),
    )
    .orderBy(asc(videos.createdAt))
    .limit(limit);
  return rows.map((row) => row.id);
}
