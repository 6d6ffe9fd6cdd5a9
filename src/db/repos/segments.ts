import { and, asc, eq, gte, inArray, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { chunks, IDS_PER_STATEMENT } from "../../lib/chunks";
import type { Database } from "../client";
import { insertJsonRowsStatements } from "../insert-json";
import { GUARD_PARAMETERS, insertWhere } from "../insert-where";
import { videoSegments } from "../schema";

/** A segment row. */
export type SegmentRow = typeof videoSegments.$inferSelect;

/** 11 columns per row, so that one insert (and its guard) stays under D1's 100 bound parameters. */
const ROWS_PER_INSERT = Math.floor((100 - GUARD_PARAMETERS) / 11);

/**
 * Statements that replace a video's segments (run them inside one batch). With a `guard`,
 * each statement writes only if the guard holds when it runs.
 */
export function replaceSegmentsStatements(
  db: Database,
  videoId: string,
  rows: SegmentRow[],
  guard?: SQL,
): BatchItem<"sqlite">[] {
  const statements: BatchItem<"sqlite">[] = [
    db.delete(videoSegments).where(and(eq(videoSegments.videoId, videoId), guard)),
  ];
  for (const slice of chunks(rows, ROWS_PER_INSERT)) {
    statements.push(
      guard ? insertWhere(db, videoSegments, slice, guard) : db.insert(videoSegments).values(slice),
    );
  }
  return statements;
}

/**
 * Statements that store segments as they are now, a few MB of JSON rows each: a segment whose
 * id is taken replaces the one there, and each writes only while `guard` holds. Storing the
 * same segments twice, even at once, leaves them as they were; run `trimSegmentsStatement`
 * after the last, so no segment of an earlier, longer list stays.
 */
export function storeSegmentsStatements(
  db: Database,
  rows: readonly SegmentRow[],
  guard: SQL,
): BatchItem<"sqlite">[] {
  return insertJsonRowsStatements(db, videoSegments, rows, {
    where: guard,
    replace: videoSegments.id,
  });
}

/** Removes a video's segments from position `count` on, while `guard` holds. */
export function trimSegmentsStatement(db: Database, videoId: string, count: number, guard: SQL) {
  return db
    .delete(videoSegments)
    .where(and(eq(videoSegments.videoId, videoId), gte(videoSegments.position, count), guard));
}

/** A video's segments in time order. */
export async function listSegments(db: Database, videoId: string): Promise<SegmentRow[]> {
  return db
    .select()
    .from(videoSegments)
    .where(eq(videoSegments.videoId, videoId))
    .orderBy(asc(videoSegments.position));
}

/**
 * The segments of several videos, one query per 90 videos: each video's in time order, as
 * `listSegments` gives them, under its id (an empty list for a video without segments).
 */
export async function listSegmentsOfVideos(
  db: Database,
  videoIds: readonly string[],
): Promise<Map<string, SegmentRow[]>> {
  const byVideo = new Map<string, SegmentRow[]>(videoIds.map((id) => [id, []]));
  const slices = chunks([...byVideo.keys()], IDS_PER_STATEMENT);
  const found = await Promise.all(
    slices.map((slice) =>
      db
        .select()
        .from(videoSegments)
        .where(inArray(videoSegments.videoId, slice))
        .orderBy(asc(videoSegments.videoId), asc(videoSegments.position)),
    ),
  );
  for (const row of found.flat()) byVideo.get(row.videoId)?.push(row);
  return byVideo;
}
