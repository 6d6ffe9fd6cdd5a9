import { asc, eq } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "../client";
import { videoSegments } from "../schema";

/** A segment row. */
export type SegmentRow = typeof videoSegments.$inferSelect;

/** Columns per row, so that one insert stays under D1's 100 bound parameters. */
const ROWS_PER_INSERT = Math.floor(100 / 11);

/** Statements that replace a video's segments (run them inside one batch). */
export function replaceSegmentsStatements(
  db: Database,
  videoId: string,
  rows: SegmentRow[],
): BatchItem<"sqlite">[] {
  const statements: BatchItem<"sqlite">[] = [
    db.delete(videoSegments).where(eq(videoSegments.videoId, videoId)),
  ];
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    statements.push(db.insert(videoSegments).values(rows.slice(i, i + ROWS_PER_INSERT)));
  }
  return statements;
}

/** A video's segments in time order. */
export async function listSegments(db: Database, videoId: string): Promise<SegmentRow[]> {
  return db
    .select()
    .from(videoSegments)
    .where(eq(videoSegments.videoId, videoId))
    .orderBy(asc(videoSegments.position));
}
