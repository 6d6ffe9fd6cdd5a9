import { and, desc, eq, inArray, lt, ne, type SQL, sql } from "drizzle-orm";
import { chunks, IDS_PER_STATEMENT } from "../../lib/chunks";
import type { PageQuery } from "../../lib/pagination";
import type { Database } from "../client";
import { videos } from "../schema";

/** A video row as stored, a deleted video's tombstone included. */
export type StoredVideoRow = typeof videos.$inferSelect;
/** A stored video status (`deleted` marks a tombstone). */
export type VideoStatus = StoredVideoRow["status"];
/** A status a reader of the video can see. */
export type VisibleVideoStatus = Exclude<VideoStatus, "deleted">;
/** A video row every read path may see: never a deleted video. */
export type VideoRow = StoredVideoRow & { status: VisibleVideoStatus };

/** The condition every read of videos carries: a deleted video is never read. */
export const notDeleted: SQL = ne(videos.status, "deleted");

/** Whether a stored row is one readers may see (narrows its status). */
export function isVisible<T extends Pick<StoredVideoRow, "status">>(
  row: T,
): row is T & { status: VisibleVideoStatus } {
  return row.status !== "deleted";
}

/** The videos of a workspace, newest first, `limit + 1` rows from after the cursor key. */
export async function listVideos(
  db: Database,
  workspaceId: string,
  filter: { status?: VisibleVideoStatus | undefined },
  page: PageQuery,
): Promise<VideoRow[]> {
  const conditions: SQL[] = [eq(videos.workspaceId, workspaceId), notDeleted];
  if (filter.status !== undefined) conditions.push(eq(videos.status, filter.status));
  const afterId = page.after?.[0];
  if (typeof afterId === "string") conditions.push(lt(videos.id, afterId));
  const rows = await db
    .select()
    .from(videos)
    .where(and(...conditions))
    .orderBy(desc(videos.id))
    .limit(page.limit + 1);
  return rows.filter(isVisible);
}

/** One video of a workspace, or null when absent, deleted or in another workspace. */
export async function findVideo(
  db: Database,
  workspaceId: string,
  id: string,
): Promise<VideoRow | null> {
  const rows = await db
    .select()
    .from(videos)
    .where(and(eq(videos.workspaceId, workspaceId), eq(videos.id, id), notDeleted))
    .limit(1);
  return rows.find(isVisible) ?? null;
}

/** Inserts a new video row. */
export async function insertVideo(db: Database, row: typeof videos.$inferInsert): Promise<void> {
  await db.insert(videos).values(row);
}

/** A change to a video's processing state and measurements. */
export type VideoChange = Partial<
  Pick<
    VideoRow,
    "status" | "progress" | "duration" | "frameCount" | "media" | "error" | "workRequestId"
  >
> & { updatedAt: string };

/** Changes a video's processing state and measurements. */
export async function updateVideo(db: Database, id: string, change: VideoChange): Promise<void> {
  await updateVideoStatement(db, id, change);
}

/**
 * The statement of updateVideo, for batching with other writes. With `onlyIn`, it changes
 * the video only while its status is one of those.
 */
export function updateVideoStatement(
  db: Database,
  id: string,
  change: VideoChange,
  onlyIn?: readonly VideoStatus[],
) {
  const inStatus = onlyIn ? inArray(videos.status, [...onlyIn]) : undefined;
  return db
    .update(videos)
    .set(change)
    .where(and(eq(videos.id, id), inStatus));
}

/**
 * Changes a video only while its status is one of `from`; false when it was not (another
 * delivery of the same work got there first, or the video ended meanwhile).
 */
export async function updateVideoIf(
  db: Database,
  id: string,
  from: readonly VideoStatus[],
  change: VideoChange,
): Promise<boolean> {
  const changed = await updateVideoStatement(db, id, change, from).returning({ id: videos.id });
  return changed.length > 0;
}

/**
 * A condition for guarded statements in a batch: the video's status is one of `statuses`
 * when the statement runs. Two bound parameters for one status.
 */
export function videoIsIn(id: string, statuses: readonly VideoStatus[]): SQL {
  return sql`exists (select 1 from ${videos} where ${videos.id} = ${id} and ${inArray(videos.status, [...statuses])})`;
}

/**
 * Records that a queued video's upload completed and names the request whose work its
 * processing is. `uploaded_at` keeps its first value, so completing again changes only the
 * request.
 */
export function markUploadedStatement(db: Database, id: string, requestId: string, at: string) {
  return db
    .update(videos)
    .set({
      workRequestId: requestId,
      uploadedAt: sql`coalesce(${videos.uploadedAt}, ${at})`,
      updatedAt: at,
    })
    .where(and(eq(videos.id, id), eq(videos.status, "queued")));
}

/** The condition under which `markUploadedStatement` marks the upload for the first time. */
export function awaitingUpload(id: string): SQL {
  return sql`exists (select 1 from ${videos} where ${videos.id} = ${id} and ${videos.status} = 'queued' and ${videos.uploadedAt} is null)`;
}

/**
 * One video by id, whatever its workspace (for consumers that carry the id); null when absent
 * or deleted, so work over a deleted video stops where it stands.
 */
export async function findVideoById(db: Database, id: string): Promise<VideoRow | null> {
  const rows = await db
    .select()
    .from(videos)
    .where(and(eq(videos.id, id), notDeleted))
    .limit(1);
  return rows.find(isVisible) ?? null;
}

/**
 * The videos of a workspace among `ids`, one query per 90 ids, in no particular order;
 * absent, deleted and foreign ids are left out, so callers decide what a missing one means.
 */
export async function findVideos(
  db: Database,
  workspaceId: string,
  ids: readonly string[],
): Promise<VideoRow[]> {
  const slices = chunks([...new Set(ids)], IDS_PER_STATEMENT);
  const found = await Promise.all(
    slices.map((slice) =>
      db
        .select()
        .from(videos)
        .where(and(eq(videos.workspaceId, workspaceId), inArray(videos.id, slice), notDeleted)),
    ),
  );
  return found.flat().filter(isVisible);
}
