import { z } from "zod";
import type { IndexVideoMessage, ProcessVideoMessage } from "../src/domain/messages";

/** Processing queue: what a consumer accepts as a process-video message. */
export const ProcessVideoMessageSchema = z.object({
  type: z.literal("process-video"),
  video_id: z.string(),
  workspace_id: z.string(),
}) satisfies z.ZodType<ProcessVideoMessage>;

/** Indexing queue: what a consumer accepts as an index-video message. */
export const IndexVideoMessageSchema = z.object({
  type: z.literal("index-video"),
  video_id: z.string(),
  workspace_id: z.string(),
}) satisfies z.ZodType<IndexVideoMessage>;
