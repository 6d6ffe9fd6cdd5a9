import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../client";

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

/**
 * Counts a workspace's videos (optionally within `videoIds`) by what search could do with
 * them, in one statement. Each count reads an index only (the workspace-status index, and the
 * partial index of completed videos nothing was understood of), never a video's row, and stops
 * at VIDEOS_COUNTED, so it costs the same in a workspace of any size.
 */
export async function searchScopeCounts(
  db: Database,
  workspaceId: string,
  videoIds: string[] | undefined,
): Promise<SearchScopeCounts> {
  // The ids go in as one JSON parameter: D1 binds at most 100 per statement.
  const filter =
    videoIds === undefined
      ? sql``
      : sql` AND id IN (SELECT value FROM json_each(${JSON.stringify(videoIds)}))`;
  const count = (where: SQL) =>
    sql`(SELECT count(*) FROM (SELECT 1 FROM videos WHERE workspace_id = ${workspaceId} AND ${where}${filter} LIMIT ${VIDEOS_COUNTED}))`;
  const [row] = await db.all<SearchScopeCounts>(
    sql`SELECT ${count(sql`status = 'completed'`)} AS completed, ${count(sql`status = 'completed' AND nothing_understood = 1`)} AS nothingUnderstood, ${count(sql`status IN ('queued', 'processing')`)} AS unfinished, ${count(sql`status = 'failed'`)} AS failed`,
  );
  return {
    completed: row?.completed ?? 0,
    nothingUnderstood: row?.nothingUnderstood ?? 0,
    unfinished: row?.unfinished ?? 0,
    failed: row?.failed ?? 0,
  };
}
