import { type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { UsageCount, UsageMetric } from "../../domain/usage";
import type { Database } from "../client";
import { usageDaily, videoUsage } from "../schema";

/** Whose usage a count adds to: always the workspace's daily rollup, and a video's own. */
export interface UsageTarget {
  workspaceId: string;
  videoId?: string;
}

/** Counts as one JSON value: one bound parameter however many there are. */
function countsJson(counts: readonly UsageCount[]): string {
  return JSON.stringify(counts.map((count) => [count.metric, count.key, count.value]));
}

const cell = (i: number) => sql.raw(`json_extract(c.value, '$[${i}]')`);

/** Adds to a workspace's counter of a day when its row is there already. */
const ADD_TO_DAY = {
  target: [usageDaily.workspaceId, usageDaily.day, usageDaily.metric, usageDaily.key],
  set: { value: sql`${usageDaily.value} + excluded.value` },
};

/** Adds to a video's counter when its row is there already. */
const ADD_TO_VIDEO = {
  target: [videoUsage.videoId, videoUsage.metric, videoUsage.key],
  set: { value: sql`${videoUsage.value} + excluded.value` },
};

/**
 * Inserts the rows `select` yields into the workspace's rollup, adding to rows already there.
 * The select needs a WHERE clause: SQLite reads an upsert's ON otherwise as a join's.
 */
function addToDays(db: Database, select: SQL) {
  return db.insert(usageDaily).select(select).onConflictDoUpdate(ADD_TO_DAY);
}

/**
 * Statements adding `counts` to the workspace's rollup for `day` (and to the video's usage),
 * only while `guard` holds when they run. Batch them before the guarded change that makes the
 * counted thing happen, on the same condition: in D1's one-transaction batch both see the same
 * rows, so a redelivered message, whose change finds its condition gone, counts nothing.
 */
export function countStatements(
  db: Database,
  target: UsageTarget,
  day: string,
  counts: readonly UsageCount[],
  guard: SQL = sql`1`,
): BatchItem<"sqlite">[] {
  if (counts.length === 0) return [];
  const json = countsJson(counts);
  const statements: BatchItem<"sqlite">[] = [
    addToDays(
      db,
      sql`SELECT ${target.workspaceId}, ${day}, ${cell(0)}, ${cell(1)}, ${cell(2)}
        FROM json_each(${json}) AS c WHERE ${guard}`,
    ),
  ];
  if (target.videoId !== undefined)
    statements.push(
      db
        .insert(videoUsage)
        .select(
          sql`SELECT ${target.videoId}, ${cell(0)}, ${cell(1)}, ${cell(2)}
            FROM json_each(${json}) AS c WHERE ${guard}`,
        )
        .onConflictDoUpdate(ADD_TO_VIDEO),
    );
  return statements;
}

/** The bytes stored level as a SQL sum over the rollup rows it filters. */
const LEVEL = sql.raw(
  "coalesce(sum(CASE metric WHEN 'bytes_added' THEN value ELSE -value END), 0)",
);

/**
 * Raises the day's peak of bytes stored to the workspace's level now (batch it after bytes were
 * added). Running it again changes nothing unless the level rose meanwhile, to a level that
 * was then reached on that day: the peak is a maximum of levels reached.
 */
export function bytesPeakStatement(db: Database, workspaceId: string, day: string) {
  return db
    .insert(usageDaily)
    .select(
      sql`SELECT ${workspaceId}, ${day}, 'bytes_peak', '', ${LEVEL} FROM usage_daily
        WHERE workspace_id = ${workspaceId} AND metric IN ('bytes_added', 'bytes_removed')`,
    )
    .onConflictDoUpdate({
      target: ADD_TO_DAY.target,
      set: { value: sql`max(${usageDaily.value}, excluded.value)` },
    });
}

/**
 * Counts a video's source as removed from storage, once: only while the video is not yet
 * deleted and its upload had completed (batch it before the mark that deletes it).
 */
export function bytesRemovedStatement(
  db: Database,
  workspaceId: string,
  videoId: string,
  day: string,
) {
  return addToDays(
    db,
    sql`SELECT workspace_id, ${day}, 'bytes_removed', '', file_size FROM videos
      WHERE id = ${videoId} AND workspace_id = ${workspaceId} AND status <> 'deleted' AND uploaded_at IS NOT NULL`,
  );
}

/**
 * Counts a run's findings in its workspace's rollup, from the stored rows: batch it with the
 * run's completion, which happens once and is when its findings become readable.
 */
export function runFindingsStatement(db: Database, runId: string, day: string) {
  const stored = sql`(SELECT count(*) FROM findings WHERE run_id = ${runId})`;
  return addToDays(
    db,
    sql`SELECT workspace_id, ${day}, 'findings', '', ${stored} FROM runs
      WHERE id = ${runId} AND ${stored} > 0`,
  );
}

/** One stored counter of a day. */
export interface UsageRow {
  day: string;
  metric: UsageMetric;
  key: string;
  value: number;
}

/** The workspace's counters from `from` to `to` (days, both included). */
export async function usageRows(
  db: Database,
  workspaceId: string,
  from: string,
  to: string,
): Promise<UsageRow[]> {
  return db.all<UsageRow>(sql`SELECT day, metric, key, value FROM usage_daily
    WHERE workspace_id = ${workspaceId} AND day >= ${from} AND day <= ${to}`);
}

/**
 * The workspace's bytes stored at the end of the day before `day` (the level that day starts
 * with), or now when no day is given.
 */
export async function bytesLevel(db: Database, workspaceId: string, day?: string): Promise<number> {
  const before = day === undefined ? sql`` : sql` AND day < ${day}`;
  const rows = await db.all<{ level: number }>(sql`SELECT ${LEVEL} AS level FROM usage_daily
    WHERE workspace_id = ${workspaceId} AND metric IN ('bytes_added', 'bytes_removed')${before}`);
  return Number(rows[0]?.level ?? 0);
}

/** A video's own counters. */
export async function videoUsageRows(
  db: Database,
  videoId: string,
): Promise<Omit<UsageRow, "day">[]> {
  return db.all<Omit<UsageRow, "day">>(
    sql`SELECT metric, key, value FROM video_usage WHERE video_id = ${videoId}`,
  );
}
