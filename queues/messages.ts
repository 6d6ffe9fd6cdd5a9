import { z } from "zod";
import type {
  AssembleVideoMessage,
  IndexVideoMessage,
  ProcessVideoMessage,
  UnderstandWindowMessage,
} from "../src/domain/messages";

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

/** Processing queue: what a consumer accepts as an assemble-video message. */
export const AssembleVideoMessageSchema = z.object({
  type: z.literal("assemble-video"),
  video_id: z.string(),
  workspace_id: z.string(),
}) satisfies z.ZodType<AssembleVideoMessage>;

/** Processing queue: either step a video's processing takes there. */
export const ProcessingMessageSchema = z.discriminatedUnion("type", [
  ProcessVideoMessageSchema,
  AssembleVideoMessageSchema,
]);

/** Windows queue: what the consumer accepts as an understand-window message. */
export const UnderstandWindowMessageSchema = z.object({
  type: z.literal("understand-window"),
  video_id: z.string(),
  workspace_id: z.string(),
  position: z.number().int().min(0),
}) satisfies z.ZodType<UnderstandWindowMessage>;
