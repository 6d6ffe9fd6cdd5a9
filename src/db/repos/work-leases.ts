import { type AnyColumn, and, asc, eq, inArray, isNull, lt, notExists, or, sql } from "drizzle-orm";
import type { Database } from "../client";
import { runs, videos, workLeases } from "../schema";
import type { RunRow } from "./runs";
import { isVisible, type VideoRow } from "./videos";

/** A lease row. */
export type WorkLease = typeof workLeases.$inferSelect;

/** A stale item and the sweep's earlier attempts on it. */
export interface Stale<T> {
  row: T;
  attempts: number;
  /**
   * Whether the item's work was picked up since the sweep last re-sent it (or was never
   * re-sent): only then does finding it stale again count as a failed attempt.
   */
  pickedUp: boolean;
}

/** The item's work was active (its lease renewed, or its row changed) after the last re-send. */
function pickedUpSince(updatedAt: AnyColumn) {
  return sql<number>`(${workLeases.resentAt} IS NULL OR ${workLeases.activeFrom} > ${workLeases.resentAt} OR ${updatedAt} > ${workLeases.resentAt})`;
}

function stale<T>(
  rows: { row: T; attempts: number | null; pickedUp: number | null }[],
): Stale<T>[] {
  return rows.map(({ row, attempts, pickedUp }) => ({
    row,
    attempts: attempts ?? 0,
    pickedUp: pickedUp === null || Number(pickedUp) === 1,
  }));
}

/** Which items count as stale: neither updated nor active since `staleBefore`. */
export interface StaleWindow {
  staleBefore: string;
  limit: number;
}

/** Records (or replaces) an item's lease; batch it with the change it follows. */
export function upsertLeaseStatement(
  db: Database,
  lease: Omit<WorkLease, "resentAt"> & { resentAt?: string | null },
) {
  return db
    .insert(workLeases)
    .values({ ...lease, resentAt: lease.resentAt ?? null })
    .onConflictDoUpdate({
      target: workLeases.subjectId,
      set: {
        attempts: lease.attempts,
        activeFrom: lease.activeFrom,
        resentAt: lease.resentAt ?? null,
      },
    });
}

/** Videos `queued` or `processing` with no progress within the lease, oldest first. */
export async function staleVideos(db: Database, window: StaleWindow): Promise<Stale<VideoRow>[]> {
  const rows = await db
    .select({
      row: videos,
      attempts: workLeases.attempts,
      pickedUp: pickedUpSince(videos.updatedAt),
    })
    .from(videos)
    .leftJoin(workLeases, eq(workLeases.subjectId, videos.id))
    .where(
      and(
        inArray(videos.status, ["queued", "processing"]),
        lt(videos.updatedAt, window.staleBefore),
        or(isNull(workLeases.activeFrom), lt(workLeases.activeFrom, window.staleBefore)),
      ),
    )
    .orderBy(asc(videos.updatedAt))
    .limit(window.limit);
  return stale(rows.flatMap(({ row, ...rest }) => (isVisible(row) ? [{ row, ...rest }] : [])));
}

/** Runs `queued` or `processing` with no progress within the lease, oldest first. */
export async function staleRuns(db: Database, window: StaleWindow): Promise<Stale<RunRow>[]> {
  const rows = await db
    .select({ row: runs, attempts: workLeases.attempts, pickedUp: pickedUpSince(runs.updatedAt) })
    .from(runs)
    .leftJoin(workLeases, eq(workLeases.subjectId, runs.id))
    .where(
      and(
        inArray(runs.status, ["queued", "processing"]),
        lt(runs.updatedAt, window.staleBefore),
        or(isNull(workLeases.activeFrom), lt(workLeases.activeFrom, window.staleBefore)),
      ),
    )
    .orderBy(asc(runs.updatedAt))
    .limit(window.limit);
  return stale(rows);
}

/**
 * Forgets the leases of items that have ended (or vanished); a deleted video's has ended
 * once it is erased. Each lease looks its item up by
 * id, so the statement reads as many rows as there are leases (work in flight), never the
 * videos or runs tables as a whole.
 */
export async function deleteSettledLeases(db: Database): Promise<void> {
  const active = ["queued", "processing"] as const;
  // A video deleted while processing keeps its lease until erased: erasure waits on it.
  const videoActive = db
    .select({ id: videos.id })
    .from(videos)
    .where(
      and(
        eq(videos.id, workLeases.subjectId),
        or(
          inArray(videos.status, active),
          and(eq(videos.status, "deleted"), isNull(videos.erasedAt)),
        ),
      ),
    );
  const runActive = db
    .select({ id: runs.id })
    .from(runs)
    .where(and(eq(runs.id, workLeases.subjectId), inArray(runs.status, active)));
  await db
    .delete(workLeases)
    .where(
      or(
        and(eq(workLeases.kind, "video"), notExists(videoActive)),
        and(eq(workLeases.kind, "run"), notExists(runActive)),
      ),
    );
}

/** An item's lease, if any (for tests and diagnostics). */
export async function findLease(db: Database, subjectId: string): Promise<WorkLease | null> {
  const rows = await db
    .select()
    .from(workLeases)
    .where(eq(workLeases.subjectId, subjectId))
    .limit(1);
  return rows[0] ?? null;
}

/** Records when an item's work (re)started; the re-send count is kept. */
export function markActiveStatement(db: Database, subjectId: string, activeFrom: string) {
  return db.update(workLeases).set({ activeFrom }).where(eq(workLeases.subjectId, subjectId));
}

/** Forgets an item's lease; batch it with the move that ends the item. */
export function deleteLeaseStatement(db: Database, subjectId: string) {
  return db.delete(workLeases).where(eq(workLeases.subjectId, subjectId));
}

/**
 * Renews an item's lease while its work progresses: the lease then runs from now. Creates the
 * lease when there is none yet (a re-send count of 0), keeps the re-send count otherwise.
 */
export function renewLeaseStatement(
  db: Database,
  lease: { subjectId: string; kind: WorkLease["kind"]; activeFrom: string },
) {
  return db
    .insert(workLeases)
    .values({ ...lease, attempts: 0 })
    .onConflictDoUpdate({
      target: workLeases.subjectId,
      set: { activeFrom: sql`max(${workLeases.activeFrom}, excluded.active_from)` },
    });
}
