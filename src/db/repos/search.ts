import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { VideoMedia } from "../../domain/video";
import { chunks, IDS_PER_STATEMENT } from "../../lib/chunks";
import type { KeywordLevel } from "../../lib/text/search-scoring";
import type { Database } from "../client";
import { GUARD_PARAMETERS, insertWhere } from "../insert-where";
import { segmentText, videoSegments, videos } from "../schema";
import type { SegmentRow } from "./segments";

/** One row of the full-text index. */
export interface SearchTextRow {
  segmentId: string;
  workspaceId: string;
  videoId: string;
  body: string;
}

/** Four bound parameters per row: stay under D1's 100 per statement, guard included. */
const ROWS_PER_INSERT = Math.floor((100 - GUARD_PARAMETERS) / 4);

/**
 * Statements that replace a video's rows in the full-text index (batch them). They write
 * `segment_text`, whose triggers keep the FTS5 table `segment_search` in step (migration
 * 0011). With a `guard`, each statement writes only if the guard holds when it runs.
 */
export function replaceSearchTextStatements(
  db: Database,
  videoId: string,
  rows: SearchTextRow[],
  guard?: SQL,
): BatchItem<"sqlite">[] {
  const statements: BatchItem<"sqlite">[] = [
    db.delete(segmentText).where(and(eq(segmentText.videoId, videoId), guard)),
  ];
  for (const slice of chunks(rows, ROWS_PER_INSERT)) {
    statements.push(
      guard ? insertWhere(db, segmentText, slice, guard) : db.insert(segmentText).values(slice),
    );
  }
  return statements;
}

/** A keyword hit: a segment holding some of the query's words. */
export interface KeywordHit {
  segmentId: string;
  videoId: string;
}

/**
 * The keyword hits of a workspace, optionally within some videos: up to `limit` of each
 * level's matches (`keywordLevels`), best level first, each segment once. One statement:
 * each level is a materialized CTE, so D1 is asked once. A level runs only while the levels
 * before it found fewer than `limit` segments (its LIMIT is 0 otherwise, which SQLite
 * answers without reading the index): past that, none of its rows would be kept, and a
 * BM25-ranked level would rank every segment holding any one word for nothing.
 */
export async function keywordHits(
  db: Database,
  workspaceId: string,
  levels: KeywordLevel[],
  videoIds: string[] | undefined,
  limit: number,
): Promise<KeywordHit[]> {
  if (levels.length === 0) return [];
  const n = sql.raw(String(Math.trunc(limit)));
  // The ids go in as one JSON parameter: D1 binds at most 100 per statement.
  const videoFilter =
    videoIds === undefined
      ? sql``
      : sql` AND video_id IN (SELECT value FROM json_each(${JSON.stringify(videoIds)}))`;
  const name = (index: number) => sql.raw(`level${index}`);
  const ctes = levels.map(({ expression, ranked }, index) => {
    const earlier = sql.join(
      levels.slice(0, index).map((_, before) => sql`SELECT segment_id FROM ${name(before)}`),
      sql` UNION `,
    );
    const rows =
      index === 0
        ? n
        : sql`(SELECT CASE WHEN count(*) < ${n} THEN ${n} ELSE 0 END FROM (${earlier}))`;
    return sql`${name(index)} AS MATERIALIZED (SELECT segment_id, video_id FROM segment_search WHERE segment_search MATCH ${expression} AND workspace_id = ${workspaceId}${videoFilter}${ranked ? sql` ORDER BY rank` : sql``} LIMIT ${rows})`;
  });
  const selects = levels.map(
    (_, index) =>
      sql`SELECT segment_id, video_id, ${sql.raw(String(index))} AS level FROM ${name(index)}`,
  );
  const rows = await db.all<{ segment_id: string; video_id: string; level: number }>(
    sql`WITH ${sql.join(ctes, sql`, `)} ${sql.join(selects, sql` UNION ALL `)}`,
  );
  const hits = new Map<string, KeywordHit>();
  for (const row of [...rows].sort((a, b) => a.level - b.level)) {
    if (hits.size >= limit) break;
    if (!hits.has(row.segment_id)) {
      hits.set(row.segment_id, { segmentId: row.segment_id, videoId: row.video_id });
    }
  }
  return [...hits.values()];
}

/** A segment together with what search shows of its video. */
export interface SegmentWithVideo {
  segment: SegmentRow;
  video: { id: string; filename: string; media: VideoMedia | null };
}

/** Segments of completed videos of a workspace, by id (unknown or unfinished ones are left out). */
export async function completedSegments(
  db: Database,
  workspaceId: string,
  ids: string[],
): Promise<SegmentWithVideo[]> {
  if (ids.length === 0) return [];
  // One statement, whatever the count: the ids go in as one JSON parameter (D1 binds at
  // most 100). Only the primary key in the WHERE: given a workspace condition, SQLite
  // prefers the workspace index and scans every segment of the workspace instead.
  const rows = await db
    .select({
      segment: videoSegments,
      id: videos.id,
      filename: videos.filename,
      media: videos.media,
      status: videos.status,
      videoWorkspace: videos.workspaceId,
    })
    .from(videoSegments)
    .innerJoin(videos, eq(videos.id, videoSegments.videoId))
    .where(sql`${videoSegments.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`);
  return rows.flatMap((row) =>
    row.segment.workspaceId === workspaceId &&
    row.videoWorkspace === workspaceId &&
    row.status === "completed"
      ? [{ segment: row.segment, video: { id: row.id, filename: row.filename, media: row.media } }]
      : [],
  );
}

/** Which of these video ids exist in the workspace (any status). */
export async function existingVideoIds(
  db: Database,
  workspaceId: string,
  ids: string[],
): Promise<Set<string>> {
  const found = new Set<string>();
  for (const slice of chunks(ids, IDS_PER_STATEMENT)) {
    const rows = await db
      .select({ id: videos.id })
      .from(videos)
      .where(and(eq(videos.workspaceId, workspaceId), inArray(videos.id, slice)));
    for (const row of rows) found.add(row.id);
  }
  return found;
}
