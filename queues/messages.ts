import { z } from "zod";

/** Processing queue: probe and index one uploaded video. */
export const ProcessVideoMessageSchema = z.object({
  type: z.literal("process-video"),
  video_id: z.string(),
  workspace_id: z.string(),
});
/** A processing queue message. */
export type ProcessVideoMessage = z.infer<typeof ProcessVideoMessageSchema>;

/** Indexing queue: make one processed video searchable, then mark it completed. */
export const IndexVideoMessageSchema = z.object({
  type: z.literal("index-video"),
  video_id: z.string(),
  workspace_id: z.string(),
});
/** An indexing queue message. */
export type IndexVideoMessage = z.infer<typeof IndexVideoMessageSchema>;
