import { z } from "zod";

// Every queue message: its type, which producers send, and its schema, which the consumer
// parses each delivery with (a message that does not parse is acknowledged and dropped).

/**
 * What every message may carry: the request whose work it is, which the consumer's log lines
 * name. Absent on messages sent before it existed and on work no request caused.
 */
export interface CausedByRequest {
  request_id?: string;
}

const requestIdField = { request_id: z.string().optional() };

/** The `request_id` of a message about work of `requestId`; nothing when no request is known. */
export function causedBy(requestId: string | null | undefined): CausedByRequest {
  return requestId ? { request_id: requestId } : {};
}

/** Processing queue: probe and index one uploaded video. */
export interface ProcessVideoMessage extends CausedByRequest {
  type: "process-video";
  video_id: string;
  workspace_id: string;
}

/** Processing queue: build the index of a video whose windows are all understood. */
export interface AssembleVideoMessage extends CausedByRequest {
  type: "assemble-video";
  video_id: string;
  workspace_id: string;
}

/** Processing queue: erase a deleted video's bytes, rows and vectors, then announce it. */
export interface EraseVideoMessage extends CausedByRequest {
  type: "erase-video";
  video_id: string;
  workspace_id: string;
}

/**
 * Processing queue: erase a deleting workspace a bounded number of steps at a time; each
 * delivery that made progress sends the next.
 */
export interface EraseWorkspaceMessage extends CausedByRequest {
  type: "erase-workspace";
  workspace_id: string;
}

/** Windows queue: understand one planned window of a video (a stretch of audio, some frames). */
export interface UnderstandWindowMessage extends CausedByRequest {
  type: "understand-window";
  video_id: string;
  workspace_id: string;
  /** The window's position in the video's plan. */
  position: number;
}

/** Indexing queue: make one processed video searchable, then mark it completed. */
export interface IndexVideoMessage extends CausedByRequest {
  type: "index-video";
  video_id: string;
  workspace_id: string;
}

/** Analysis queue: execute one run. */
export interface RunAnalysisMessage extends CausedByRequest {
  type: "run-analysis";
  run_id: string;
  workspace_id: string;
}

/**
 * Webhook queue: make one attempt of one delivery. `attempts` and `due` name the attempt
 * the message was sent for; a message that no longer matches the delivery is stale.
 */
export interface DeliverWebhookMessage extends CausedByRequest {
  type: "deliver-webhook";
  delivery_id: string;
  attempts: number;
  due: string;
}

/** Processing queue: what a consumer accepts as a process-video message. */
export const ProcessVideoMessageSchema = z.object({
  type: z.literal("process-video"),
  video_id: z.string(),
  workspace_id: z.string(),
  ...requestIdField,
}) satisfies z.ZodType<ProcessVideoMessage>;

/** Indexing queue: what a consumer accepts as an index-video message. */
export const IndexVideoMessageSchema = z.object({
  type: z.literal("index-video"),
  video_id: z.string(),
  workspace_id: z.string(),
  ...requestIdField,
}) satisfies z.ZodType<IndexVideoMessage>;

/** Processing queue: what a consumer accepts as an assemble-video message. */
export const AssembleVideoMessageSchema = z.object({
  type: z.literal("assemble-video"),
  video_id: z.string(),
  workspace_id: z.string(),
  ...requestIdField,
}) satisfies z.ZodType<AssembleVideoMessage>;

/** Processing queue: what a consumer accepts as an erase-video message. */
export const EraseVideoMessageSchema = z.object({
  type: z.literal("erase-video"),
  video_id: z.string(),
  workspace_id: z.string(),
  ...requestIdField,
}) satisfies z.ZodType<EraseVideoMessage>;

/** Processing queue: what a consumer accepts as an erase-workspace message. */
export const EraseWorkspaceMessageSchema = z.object({
  type: z.literal("erase-workspace"),
  workspace_id: z.string(),
  ...requestIdField,
}) satisfies z.ZodType<EraseWorkspaceMessage>;

/** Processing queue: a step of a video's processing, or the erasure of a deleted video or workspace. */
export const ProcessingMessageSchema = z.discriminatedUnion("type", [
  ProcessVideoMessageSchema,
  AssembleVideoMessageSchema,
  EraseVideoMessageSchema,
  EraseWorkspaceMessageSchema,
]);

/** Windows queue: what the consumer accepts as an understand-window message. */
export const UnderstandWindowMessageSchema = z.object({
  type: z.literal("understand-window"),
  video_id: z.string(),
  workspace_id: z.string(),
  position: z.number().int().min(0),
  ...requestIdField,
}) satisfies z.ZodType<UnderstandWindowMessage>;

/** Analysis queue: what the consumer accepts as a run-analysis message. */
export const RunAnalysisMessageSchema = z.object({
  type: z.literal("run-analysis"),
  run_id: z.string(),
  workspace_id: z.string(),
  ...requestIdField,
}) satisfies z.ZodType<RunAnalysisMessage>;

/** Webhook queue: what a consumer accepts as a deliver-webhook message. */
export const DeliverWebhookMessageSchema = z.object({
  type: z.literal("deliver-webhook"),
  delivery_id: z.string(),
  attempts: z.number().int().min(0),
  due: z.string(),
  ...requestIdField,
}) satisfies z.ZodType<DeliverWebhookMessage>;
