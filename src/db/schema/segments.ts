import { index, integer, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { EvidenceSpan } from "../../domain/evidence";
import { videos } from "./videos";
import { workspaces } from "./workspaces";

/** One time segment of a video's index: what search and analysis read. */
export const videoSegments = sqliteTable(
  "video_segments",
  {
    id: text("id").primaryKey(),
    videoId: text("video_id")
      .notNull()
      .references(() => videos.id),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    position: integer("position").notNull(),
    startTime: real("start_time").notNull(),
    endTime: real("end_time").notNull(),
    sceneDescription: text("scene_description").notNull(),
    transcript: text("transcript").notNull(),
    tags: text("tags", { mode: "json" }).$type<string[]>().notNull(),
    evidence: text("evidence", { mode: "json" }).$type<EvidenceSpan[]>().notNull(),
    createdAt: text("created_at").notNull(),
  },
  (table) => [
    index("video_segments_video_idx").on(table.videoId, table.position),
    index("video_segments_workspace_idx").on(table.workspaceId, table.videoId),
  ],
);

/**
 * The rows of the full-text index (`segment_search`, an FTS5 table over this one, kept in
 * step by triggers; see migration 0011). Kept as a plain table so that replacing a video's
 * rows finds them through `video_id`'s index instead of scanning the whole FTS table.
 */
export const segmentText = sqliteTable(
  "segment_text",
  {
    /** The FTS rowid (`content_rowid`). */
    id: integer("id").primaryKey(),
    body: text("body").notNull(),
    segmentId: text("segment_id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    videoId: text("video_id").notNull(),
  },
  (table) => [index("segment_text_video_idx").on(table.videoId)],
);
