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
