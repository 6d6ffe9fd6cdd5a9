import { and, asc, count, eq, isNull, lt, or, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { chunks } from "../../lib/chunks";
import type { Database } from "../client";
import { GUARD_PARAMETERS } from "../insert-where";
import { mediaWindows, videos } from "../schema";

/** A window row. */
export type MediaWindowRow = typeof mediaWindows.$inferSelect;

/** 8 columns per row, so that one insert stays under D1's 100 bound parameters. */
const ROWS_PER_INSERT = Math.floor((100 - GUARD_PARAMETERS) / 8);

/**
 * Statements that record a video's planned windows, keeping any already recorded (a
 * redelivered plan must not reset windows that are done).
 */
export function insertWindowsStatements(
  db: Database,
  rows: MediaWindowRow[],
): BatchItem<"sqlite">[] {
  return chunks(rows, ROWS_PER_INSERT).map((slice) =>
    db.insert(mediaWindows).values(slice).onConflictDoNothing(),
  );
}

/** One window of a video. */
export async function findWindow(
  db: Database,
  videoId: string,
  position: number,
): Promise<MediaWindowRow | null> {
  const rows = await db
    .select()
    .from(mediaWindows)
    .where(and(eq(mediaWindows.videoId, videoId), eq(mediaWindows.position, position)))
    .limit(1);
  return rows[0] ?? null;
}

/**
 * Claims a pending window for one delivery until `until`; false when it is done or another
 * delivery's claim still holds (that delivery is working on it, or will be found stale).
 */
export async function claimWindow(
  db: Database,
  window: { videoId: string; position: number },
  now: string,
  until: string,
): Promise<boolean> {
  const claimed = await db
    .update(mediaWindows)
    .set({ claimedUntil: until })
    .where(
      and(
        eq(mediaWindows.videoId, window.videoId),
        eq(mediaWindows.position, window.position),
        eq(mediaWindows.state, "pending"),
        or(isNull(mediaWindows.claimedUntil), lt(mediaWindows.claimedUntil, now)),
      ),
    )
    .returning({ position: mediaWindows.position });
  return claimed.length > 0;
}

/** Extends a claim while its delivery is still working on the window. */
export function extendClaimStatement(
  db: Database,
  window: { videoId: string; position: number },
  until: string,
) {
  return db
    .update(mediaWindows)
    .set({ claimedUntil: until })
    .where(
      and(
        eq(mediaWindows.videoId, window.videoId),
        eq(mediaWindows.position, window.position),
        eq(mediaWindows.state, "pending"),
      ),
    );
}

/**
 * Stores a window's result, once: only a pending window becomes done, and only while
 * `guard` holds (the video is still processing), so a late duplicate changes nothing.
 */
export function completeWindowStatement(
  db: Database,
  window: { videoId: string; position: number },
  result: unknown,
  updatedAt: string,
  guard: SQL,
) {
  return db
    .update(mediaWindows)
    .set({ state: "done", result, claimedUntil: null, updatedAt })
    .where(
      and(
        eq(mediaWindows.videoId, window.videoId),
        eq(mediaWindows.position, window.position),
        eq(mediaWindows.state, "pending"),
        guard,
      ),
    );
}

/** How many windows a video has, and how many are done. */
export async function windowProgress(
  db: Database,
  videoId: string,
): Promise<{ total: number; done: number }> {
  const rows = await db
    .select({
      total: count(),
      done: sql<number>`coalesce(sum(case when ${mediaWindows.state} = 'done' then 1 else 0 end), 0)`,
    })
    .from(mediaWindows)
    .where(eq(mediaWindows.videoId, videoId));
  return { total: rows[0]?.total ?? 0, done: Number(rows[0]?.done ?? 0) };
}

/** The position and kind of each of a video's windows not done yet, in order. */
export async function pendingWindows(
  db: Database,
  videoId: string,
): Promise<Pick<MediaWindowRow, "position" | "kind">[]> {
  return db
    .select({ position: mediaWindows.position, kind: mediaWindows.kind })
    .from(mediaWindows)
    .where(and(eq(mediaWindows.videoId, videoId), eq(mediaWindows.state, "pending")))
    .orderBy(asc(mediaWindows.position));
}

/** Every window of a video in plan order, results included (what assembly reads). */
export async function listWindows(db: Database, videoId: string): Promise<MediaWindowRow[]> {
  return db
    .select()
    .from(mediaWindows)
    .where(eq(mediaWindows.videoId, videoId))
    .orderBy(asc(mediaWindows.position));
}

/**
 * Moves a processing video's progress to where its windows are: `from` plus `span` times the
 * share of windows done, counted when the statement runs (batch it after the window's
 * completion, so concurrent windows never move progress back). Renews the video's lease.
 */
export function windowProgressStatement(
  db: Database,
  videoId: string,
  from: number,
  span: number,
  updatedAt: string,
) {
  const done = sql`(select count(*) from ${mediaWindows} where ${mediaWindows.videoId} = ${videoId} and ${mediaWindows.state} = 'done')`;
  const total = sql`(select max(count(*), 1) from ${mediaWindows} where ${mediaWindows.videoId} = ${videoId})`;
  return db
    .update(videos)
    .set({
      progress: sql`max(${videos.progress}, ${from} + ${span} * ${done} * 1.0 / ${total})`,
      updatedAt,
    })
    .where(and(eq(videos.id, videoId), eq(videos.status, "processing")));
}
