import { sql } from "drizzle-orm";
import { index, integer, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { StoredError } from "../../domain/async-errors";
import type { VideoMedia } from "../../domain/video";
import { workspaces } from "./workspaces";

/** A video: its upload, its processing state and what processing measured. */
export const videos = sqliteTable(
  "videos",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    filename: text("filename").notNull(),
    contentType: text("content_type").notNull(),
    fileSize: integer("file_size").notNull(),
    // `deleted`: a tombstone hidden from every read; it keeps the id so runs refuse it by name.
    status: text("status", {
      enum: ["queued", "processing", "completed", "failed", "deleted"],
    }).notNull(),
    progress: real("progress").notNull().default(0),
    source: text("source").notNull().default("upload"),
    duration: real("duration"),
    frameCount: integer("frame_count"),
    media: text("media", { mode: "json" }).$type<VideoMedia>(),
    error: text("error", { mode: "json" }).$type<StoredError>(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    /** The request that created the video (POST /videos); null on videos older than the column. */
    requestId: text("request_id"),
    /**
     * The request that started the video's latest work, which its events and log lines name:
     * the completion of its upload, an upload of captions, its deletion.
     */
    workRequestId: text("work_request_id"),
    /**
     * When its upload completed (the stored bytes verified and processing asked for): from
     * then on its source counts as bytes stored until it is deleted.
     */
    uploadedAt: text("uploaded_at"),
    /** When DELETE /videos/{id} was answered. */
    deletedAt: text("deleted_at"),
    /** When erasure of a deleted video's bytes, rows and vectors completed. */
    erasedAt: text("erased_at"),
    /**
     * Nothing in the video was heard or seen (`media.understood.warning`), kept when indexing
     * completes so that search counts such videos from an index, not from every row's media.
     */
    nothingUnderstood: integer("nothing_understood", { mode: "boolean" }).notNull().default(false),
  },
  (table) => [
    index("videos_workspace_idx").on(table.workspaceId, table.id),
    index("videos_workspace_status_idx").on(table.workspaceId, table.status, table.id),
    // The crash sweep's query: unfinished videos of every workspace, least recently updated.
    index("videos_status_updated_idx").on(table.status, table.updatedAt),
    // The retention sweep's query: a workspace's videos not yet deleted, oldest upload first.
    index("videos_workspace_created_idx")
      .on(table.workspaceId, table.createdAt)
      .where(sql`${table.status} <> 'deleted'`),
    // Search's count of completed videos in which nothing was heard or seen.
    index("videos_workspace_nothing_understood_idx")
      .on(table.workspaceId)
      .where(sql`${table.status} = 'completed' AND ${table.nothingUnderstood} = 1`),
  ],
);
