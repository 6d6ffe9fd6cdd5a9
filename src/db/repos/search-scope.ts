import { eq, type SQL, sql } from "drizzle-orm";
import type { Database } from "../client";
import { workspaces } from "../schema";

/** Videos counted at most in each count: past this, search says "at least". */
export const VIDEOS_COUNTED = 10_000;

/** What a search covered, in videos: what its `scope` and an empty answer's explanation say. */
export interface SearchScopeCounts {
  /** Completed videos: the ones searched. */
  completed: number;
  /** Of them, those in which nothing was heard or seen (`nothing_understood`). */
  nothingUnderstood: number;
  /** Videos still uploading or processing (`queued`, `processing`): not searched yet. */
  unfinished: number;
  /** Failed videos: never searched. */
  failed: number;
}

/** The row the counting statement answers. */
export type SearchScopeCountsRow = Partial<SearchScopeCounts>;

/**
 * The statement counting a workspace's videos (optionally within `videoIds`) by what search
 * could do with them, as a select of the workspace's row (a drizzle select, which a D1 batch
 * can carry). Each count reads an index only (the workspace-status index, and the partial
 * index of completed videos nothing was understood of), never a video's row, and stops at
 * VIDEOS_COUNTED, so it costs the same in a workspace of any size.
 */
export function searchScopeCountsQuery(
  db: Database,
  workspaceId: string,
  videoIds: string[] | undefined,
) {
  // The ids go in as one JSON parameter: D1 binds at most 100 per statement.
  const filter =
    videoIds === undefined
      ? sql``
      : sql` AND id IN (SELECT value FROM json_each(${JSON.stringify(videoIds)}))`;
  const count = (where: SQL) =>
    sql<number>`(SELECT count(*) FROM (SELECT 1 FROM videos WHERE workspace_id = ${workspaceId} AND ${where}${filter} LIMIT ${VIDEOS_COUNTED}))`;
  return db
    .select({
      completed: count(sql`status = 'completed'`).as("completed"),
      nothingUnderstood: count(sql`status = 'completed' AND nothing_understood = 1`).as(
        "nothing_understood",
      ),
      unfinished: count(sql`status IN ('queued', 'processing')`).as("unfinished"),
      failed: count(sql`status = 'failed'`).as("failed"),
    })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
}

/** The counts of the counting statement's answer. */
export function scopeCountsOf(rows: SearchScopeCountsRow[]): SearchScopeCounts {
  const [row] = rows;
  return {
    completed: row?.completed ?? 0,
    nothingUnderstood: row?.nothingUnderstood ?? 0,
    unfinished: row?.unfinished ?? 0,
    failed: row?.failed ?? 0,
  };
}

/** Counts a workspace's videos by what search could do with them (`searchScopeCountsQuery`). */
export async function searchScopeCounts(
  db: Database,
  workspaceId: string,
  videoIds: string[] | undefined,
): Promise<SearchScopeCounts> {
  return scopeCountsOf(await searchScopeCountsQuery(db, workspaceId, videoIds));
}
