import { env } from "cloudflare:workers";
import { database } from "../../src/db/client";
import type { SegmentRow } from "../../src/db/repos/segments";
import { videos } from "../../src/db/schema";
import { nowIso } from "../../src/lib/clock";
import { newId } from "../../src/lib/ids";

type VideoInsert = typeof videos.$inferInsert;

/** Inserts video rows directly, for tests about reading and listing. */
export async function insertVideos(
  workspaceId: string,
  count: number,
  overrides: Partial<VideoInsert> = {},
): Promise<string[]> {
  const rows: VideoInsert[] = [];
  for (let i = 0; i < count; i++) {
    const now = nowIso();
    rows.push({
      id: newId("vid"),
      workspaceId,
      filename: `clip-${i}.mp4`,
      contentType: "video/mp4",
      fileSize: 1024,
      status: "completed",
      progress: 100,
      createdAt: now,
      updatedAt: now,
      ...overrides,
    });
  }
  const db = database(env.DB);
  // D1 allows 100 bound parameters per statement: insert in small chunks, one batch.
  const chunks: VideoInsert[][] = [];
  for (let i = 0; i < rows.length; i += 5) chunks.push(rows.slice(i, i + 5));
  const [first, ...rest] = chunks.map((chunk) => db.insert(videos).values(chunk));
  if (first) await db.batch([first, ...rest]);
  return rows.map((row) => row.id);
}

/** A segment row for tests that write segments directly: seconds [10 × position, +10). */
export function segmentRow(
  workspaceId: string,
  videoId: string,
  position: number,
  overrides: Partial<SegmentRow> = {},
): SegmentRow {
  return {
    id: `seg_${videoId.slice("vid_".length)}_${String(position).padStart(5, "0")}`,
    videoId,
    workspaceId,
    position,
    startTime: position * 10,
    endTime: position * 10 + 10,
    sceneDescription: `scene ${position}`,
    transcript: `said ${position}`,
    tags: [],
    evidence: [],
    createdAt: "2025-01-01T00:00:00.000Z",
    ...overrides,
  };
}
