import { and, asc, count, eq, gt, isNull, lt, or, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "../client";
import { insertJsonRowsStatements } from "../insert-json";
import { mediaWindows, videos } from "../schema";
import { videoIsIn } from "./videos";
import { renewLeaseStatement } from "./work-leases";

/** A window row. */
export type MediaWindowRow = typeof mediaWindows.$inferSelect;

/**
 * Statements that record planned windows, keeping any already recorded (a redelivered plan
 * must not reset windows that are done): a few statements of JSON rows, however many windows.
 */
export function insertWindowsStatements(
  db: Database,
  rows: readonly MediaWindowRow[],
): BatchItem<"sqlite">[] {
  return insertJsonRowsStatements(db, mediaWindows, rows);
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

/** Which window a statement is about. */
type WindowKey = { videoId: string; position: number };

function windowIs(window: WindowKey): SQL | undefined {
  return and(eq(mediaWindows.videoId, window.videoId), eq(mediaWindows.position, window.position));
}

/**
 * Claims a pending window for the delivery `by` until `until` and answers it as claimed (the
 * parts kept so far included); null when it is done, another delivery's claim still holds
 * (that delivery is working on it, or will be found stale) or the video is no longer
 * processing. The video's lease is renewed in the same batch: a deletion either comes first
 * and stops the claim, or finds the lease fresh and its erasure waits for the window.
 */
export async function claimWindow(
  db: Database,
  window: WindowKey,
  by: string,
  now: string,
  until: string,
): Promise<MediaWindowRow | null> {
  const [claimed] = await db.batch([
    db
      .update(mediaWindows)
      .set({ claimedUntil: until, claimedBy: by })
      .where(
        and(
          windowIs(window),
          eq(mediaWindows.state, "pending"),
          or(isNull(mediaWindows.claimedUntil), lt(mediaWindows.claimedUntil, now)),
          videoIsIn(window.videoId, ["processing"]),
        ),
      )
      .returning(),
    renewLeaseStatement(db, { subjectId: window.videoId, kind: "video", activeFrom: now }),
  ]);
  return claimed[0] ?? null;
}

/** Extends the claim of `by` while it is still working on the window (never another's). */
export function extendClaimStatement(db: Database, window: WindowKey, by: string, until: string) {
  return db
    .update(mediaWindows)
    .set({ claimedUntil: until })
    .where(
      and(windowIs(window), eq(mediaWindows.state, "pending"), eq(mediaWindows.claimedBy, by)),
    );
}

/**
 * Gives back the claim of `by` (its work failed), so the next delivery claims the window at
 * once instead of waiting for the claim to run out. A claim another delivery took over stays.
 */
export async function releaseClaim(db: Database, window: WindowKey, by: string): Promise<void> {
  await db
    .update(mediaWindows)
    .set({ claimedUntil: null, claimedBy: null })
    .where(
      and(windowIs(window), eq(mediaWindows.state, "pending"), eq(mediaWindows.claimedBy, by)),
    );
}

/** A key of a window part: what the engine names it by (a frame's index). */
const PART_KEY = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Keeps one part of a pending window's work (set under `key`, beside the parts kept before),
 * so a later delivery finds it done. Keeping a part again replaces it with the same value.
 */
export async function keepWindowPart(
  db: Database,
  window: WindowKey,
  key: string,
  part: unknown,
): Promise<void> {
  if (!PART_KEY.test(key)) throw new RangeError(`window part key ${key}`);
  await db
    .update(mediaWindows)
    .set({
      parts: sql`json_set(coalesce(${mediaWindows.parts}, '{}'), ${`$."${key}"`}, json(${JSON.stringify(part)}))`,
    })
    .where(and(windowIs(window), eq(mediaWindows.state, "pending")));
}

/** The condition that a window is still pending, and `also` holds, when a statement runs. */
export function windowIsPending(window: WindowKey, also: SQL): SQL {
  return sql`exists (select 1 from ${mediaWindows} where ${mediaWindows.videoId} = ${window.videoId} and ${mediaWindows.position} = ${window.position} and ${mediaWindows.state} = 'pending') and ${also}`;
}

/**
 * Stores a window's result, once: only a pending window becomes done, and only while
 * `guard` holds (the video is still processing), so a late duplicate changes nothing. Its
 * kept parts are let go: the result holds them.
 */
export function completeWindowStatement(
  db: Database,
  window: WindowKey,
  result: unknown,
  updatedAt: string,
  guard: SQL,
) {
  return db
    .update(mediaWindows)
    .set({ state: "done", result, claimedUntil: null, claimedBy: null, parts: null, updatedAt })
    .where(and(windowIs(window), eq(mediaWindows.state, "pending"), guard));
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

/**
 * Windows read or written at once: a page of results stays a few MB (a result is a few KB:
 * 30 s of transcript or eight frame descriptions), far under D1's 50 MB result limit.
 */
export const WINDOWS_PER_PAGE = 500;

/**
 * The position and kind of a page of a video's windows not done yet, in order, after
 * position `after` (-1: from the start).
 */
export async function pendingWindows(
  db: Database,
  videoId: string,
  after = -1,
  limit = WINDOWS_PER_PAGE,
): Promise<Pick<MediaWindowRow, "position" | "kind">[]> {
  return db
    .select({ position: mediaWindows.position, kind: mediaWindows.kind })
    .from(mediaWindows)
    .where(
      and(
        eq(mediaWindows.videoId, videoId),
        eq(mediaWindows.state, "pending"),
        gt(mediaWindows.position, after),
      ),
    )
    .orderBy(asc(mediaWindows.position))
    .limit(limit);
}

/** A page of a video's windows in plan order after position `after`, results included. */
export async function windowOutcomes(
  db: Database,
  videoId: string,
  after = -1,
  limit = WINDOWS_PER_PAGE,
): Promise<Pick<MediaWindowRow, "position" | "kind" | "plan" | "result">[]> {
  return db
    .select({
      position: mediaWindows.position,
      kind: mediaWindows.kind,
      plan: mediaWindows.plan,
      result: mediaWindows.result,
    })
    .from(mediaWindows)
    .where(and(eq(mediaWindows.videoId, videoId), gt(mediaWindows.position, after)))
    .orderBy(asc(mediaWindows.position))
    .limit(limit);
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
