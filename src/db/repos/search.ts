import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { chunks, IDS_PER_STATEMENT } from "../../lib/chunks";
import type { KeywordLevel } from "../../lib/text/search-scoring";
import type { Database } from "../client";
import { GUARD_PARAMETERS, insertWhere } from "../insert-where";
import { segmentText, videoSegments, videos } from "../schema";
import {
  type SearchScopeCounts,
  type SearchScopeCountsRow,
  scopeCountsOf,
  searchScopeCountsQuery,
} from "./search-scope";
import type { SegmentRow } from "./segments";
import { notDeleted } from "./videos";

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

/** Orders hits by level, then by position inside the level (at most `limit` per level). */
const LEVEL_STRIDE = 1_000_000;

/**
 * The ids of a workspace's keyword hits, optionally within some videos, as a subquery: the
 * first `limit` distinct segments of the levels (`keywordLevels`) taken best level first,
 * each level in its own order (BM25 for ranked levels, index order for the others). Each
 * level is a materialized CTE holding up to `limit` matches, and runs only while the levels
 * before it found fewer than `limit` segments (its LIMIT is 0 otherwise, which SQLite
 * answers without reading the index): past that, none of its rows would be kept, and a
 * ranked level would rank every segment holding any one of the words for nothing.
 */
function keywordIds(
  workspaceId: string,
  levels: KeywordLevel[],
  videoIds: string[] | undefined,
  limit: number,
): SQL {
  const n = sql.raw(String(Math.trunc(limit)));
  // The ids go in as one JSON parameter: D1 binds at most 100 per statement.
  const videoFilter =
    videoIds === undefined
      ? sql``
      : sql` AND video_id IN (SELECT value FROM json_each(${JSON.stringify(videoIds)}))`;
  // The index matches the workspace and the words together (migration 0013), so only the
  // workspace's segments are read; the `workspace_id =` test after it is the exact check.
  const workspaceMatch = `workspace_id : "${workspaceId.replace(/"/g, '""')}"`;
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
    const order = ranked ? sql`rank` : sql`rowid`;
    const match = `${workspaceMatch} AND body : (${expression})`;
    return sql`${name(index)} AS MATERIALIZED (SELECT segment_id, ${order} AS sort_key FROM segment_search WHERE segment_search MATCH ${match} AND workspace_id = ${workspaceId}${videoFilter} ORDER BY ${order} LIMIT ${rows})`;
  });
  const ranked = levels.map(
    (_, index) =>
      sql`SELECT segment_id, ${sql.raw(String(index))} AS level, row_number() OVER (ORDER BY sort_key) AS position FROM ${name(index)}`,
  );
  return sql`WITH ${sql.join(ctes, sql`, `)} SELECT segment_id FROM (${sql.join(ranked, sql` UNION ALL `)}) GROUP BY segment_id ORDER BY min(level * ${sql.raw(String(LEVEL_STRIDE))} + position) LIMIT ${n}`;
}

/** What search reads of a segment: its words to score, and what a result shows. */
export type SearchedSegment = Pick<
  SegmentRow,
  "id" | "startTime" | "endTime" | "sceneDescription" | "transcript" | "tags" | "evidence"
>;

/**
 * A segment together with what search shows of its video: its filename, and from its media
 * facts only the container title and the thumbnail's key (the rest of them, ~700 bytes of
 * JSON for a processed video, stays in the database rather than riding on every candidate).
 */
export interface SegmentWithVideo {
  segment: SearchedSegment;
  video: { id: string; filename: string; title: string | null; thumbnailKey: string | null };
}

/**
 * Segments of completed videos of a workspace whose id the condition picks. The workspace
 * and status tests are written `+column` so that SQLite does not take them for an index to
 * use: it would prefer the workspace index and scan every segment of the workspace instead
 * of looking the picked ids up by primary key. Only the columns search reads come back, each
 * under a name of its own (a D1 batch answers rows by column name).
 */
function completedSegmentsWhere(db: Database, workspaceId: string, picked: SQL) {
  return db
    .select({
      id: videoSegments.id,
      startTime: videoSegments.startTime,
      endTime: videoSegments.endTime,
      sceneDescription: videoSegments.sceneDescription,
      transcript: videoSegments.transcript,
      tags: videoSegments.tags,
      evidence: videoSegments.evidence,
      videoId: sql<string>`${videos.id}`.as("video_id"),
      filename: videos.filename,
      title: sql<string | null>`json_extract(${videos.media}, '$.title')`.as("video_title"),
      thumbnailKey: sql<string | null>`json_extract(${videos.media}, '$.thumbnail.key')`.as(
        "thumbnail_key",
      ),
    })
    .from(videoSegments)
    .innerJoin(videos, eq(videos.id, videoSegments.videoId))
    .where(
      and(
        sql`${videoSegments.id} IN (${picked})`,
        sql`+${videoSegments.workspaceId} = ${workspaceId}`,
        sql`+${videos.workspaceId} = ${workspaceId}`,
        sql`+${videos.status} = 'completed'`,
      ),
    );
}

type CompletedSegmentRow = Awaited<ReturnType<typeof completedSegmentsWhere>>[number];

function withVideo(rows: CompletedSegmentRow[]): SegmentWithVideo[] {
  return rows.map(({ videoId, filename, title, thumbnailKey, ...segment }) => ({
    segment,
    video: { id: videoId, filename, title, thumbnailKey },
  }));
}

/** Keyword retrieval's inputs: the levels (`keywordLevels`), the videos searched, how many hits. */
export interface KeywordRetrieval {
  levels: KeywordLevel[];
  videoIds: string[] | undefined;
  limit: number;
}

/** The statement reading a search's candidates (see `candidateSegments`); null when none. */
export function candidateSegmentsQuery(
  db: Database,
  workspaceId: string,
  keyword: KeywordRetrieval,
  vectorIds: string[],
) {
  const picked: SQL[] = [];
  if (keyword.levels.length > 0) {
    const { levels, videoIds, limit } = keyword;
    // A compound SELECT takes no ORDER BY or LIMIT before its last term: the keyword ids are
    // a subquery of their own.
    picked.push(sql`SELECT segment_id FROM (${keywordIds(workspaceId, levels, videoIds, limit)})`);
  }
  // The ids go in as one JSON parameter: D1 binds at most 100 per statement.
  if (vectorIds.length > 0)
    picked.push(sql`SELECT value FROM json_each(${JSON.stringify(vectorIds)})`);
  if (picked.length === 0) return null;
  return completedSegmentsWhere(db, workspaceId, sql.join(picked, sql` UNION ALL `));
}

/**
 * A search's candidates with their rows, in one statement: the workspace's keyword hits
 * (`keywordIds`) and the segments `vectorIds` names (the index's nearest matches), those of
 * completed videos only (unknown, other workspaces' and unfinished ones are left out).
 */
export async function candidateSegments(
  db: Database,
  workspaceId: string,
  keyword: KeywordRetrieval,
  vectorIds: string[],
): Promise<SegmentWithVideo[]> {
  const query = candidateSegmentsQuery(db, workspaceId, keyword, vectorIds);
  return query === null ? [] : withVideo(await query);
}

/** Videos whose filename a search may match, at most: the best first (BM25). */
export const FILENAME_CANDIDATES = 100;

/**
 * The statement reading the first segment of each completed video of the workspace
 * (optionally within `videoIds`) whose filename holds a word of `expression` (an FTS5 query
 * over the filenames' words, `video_filename_search`, migration 0030), with what search shows
 * of its video: a filename hit plays from the video's start.
 */
export function filenameCandidatesQuery(
  db: Database,
  workspaceId: string,
  expression: string,
  videoIds: string[] | undefined,
) {
  const videoFilter =
    videoIds === undefined
      ? sql``
      : sql` AND v.id IN (SELECT value FROM json_each(${JSON.stringify(videoIds)}))`;
  const match = `workspace_id : "${workspaceId.replace(/"/g, '""')}" AND body : (${expression})`;
  const picked = sql`SELECT (SELECT s.id FROM video_segments s WHERE s.video_id = v.id ORDER BY s.position LIMIT 1) FROM video_filename_search JOIN videos v ON v.id = video_filename_search.video_id WHERE video_filename_search MATCH ${match} AND video_filename_search.workspace_id = ${workspaceId} AND v.workspace_id = ${workspaceId} AND v.status = 'completed'${videoFilter} ORDER BY video_filename_search.rank LIMIT ${sql.raw(String(FILENAME_CANDIDATES))}`;
  return completedSegmentsWhere(db, workspaceId, picked);
}

/** The videos whose filename holds a word of `expression`, each with its first segment. */
export async function filenameCandidates(
  db: Database,
  workspaceId: string,
  expression: string,
  videoIds: string[] | undefined,
): Promise<SegmentWithVideo[]> {
  return withVideo(await filenameCandidatesQuery(db, workspaceId, expression, videoIds));
}

/** What one search reads after its vector query: see `searchRows`. */
export interface SearchRowsRequest {
  keyword: KeywordRetrieval;
  vectorIds: string[];
  /** The FTS5 expression over filenames; null reads none. */
  filenames: string | null;
  /** Whether to count the videos covered (the first page's `scope`). */
  counts: boolean;
}

/**
 * Everything a search reads of D1 after the vector query, in one batch (one round trip): the
 * candidates, the filename hits and the counts of the videos covered. Each is left out when
 * there is nothing to ask.
 */
export async function searchRows(
  db: Database,
  workspaceId: string,
  request: SearchRowsRequest,
): Promise<{
  candidates: SegmentWithVideo[];
  filenames: SegmentWithVideo[];
  counts: SearchScopeCounts | null;
}> {
  const { keyword, vectorIds, filenames, counts } = request;
  const candidates = candidateSegmentsQuery(db, workspaceId, keyword, vectorIds);
  const named =
    filenames === null
      ? null
      : filenameCandidatesQuery(db, workspaceId, filenames, keyword.videoIds);
  const counted = counts ? searchScopeCountsQuery(db, workspaceId, keyword.videoIds) : null;
  const items = [candidates, named, counted].filter((item) => item !== null);
  const [first, ...rest] = items;
  const answers: unknown[] = first === undefined ? [] : await db.batch([first, ...rest]);
  const next = <T>(item: unknown): T | undefined =>
    item === null ? undefined : (answers.shift() as T);
  const candidateRows = next<CompletedSegmentRow[]>(candidates) ?? [];
  const filenameRows = next<CompletedSegmentRow[]>(named) ?? [];
  const countRows = next<SearchScopeCountsRow[]>(counted);
  return {
    candidates: withVideo(candidateRows),
    filenames: withVideo(filenameRows),
    counts: countRows === undefined ? null : scopeCountsOf(countRows),
  };
}

/** Which of these video ids exist in the workspace (any status but deleted). */
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
      .where(and(eq(videos.workspaceId, workspaceId), inArray(videos.id, slice), notDeleted));
    for (const row of rows) found.add(row.id);
  }
  return found;
}
