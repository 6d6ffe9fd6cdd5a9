import { database } from "../src/db/client";
import { findVideoById } from "../src/db/repos/videos";
import type { Env } from "../src/env";
import type { Ports } from "../src/ports";
import { failVideo, processVideo } from "../src/services/processing";
import { indexVideo } from "../src/services/search-index";
import { IndexVideoMessageSchema, ProcessVideoMessageSchema } from "./messages";

/** Backoff for a retried message: 5 s, 10 s, 20 s, ... at most 5 minutes. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(300, 5 * 2 ** Math.max(0, attempts - 1));
}

/** Runs one message through `work`: ack on success, retry with backoff on failure. */
async function settle(message: Message, work: () => Promise<void>): Promise<void> {
  try {
    await work();
    message.ack();
  } catch (error) {
    console.error(
      JSON.stringify({
        queue_message: message.id,
        attempts: message.attempts,
        error: String(error),
      }),
    );
    message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
  }
}

/** The processing queue: probe and index uploaded videos. */
export async function consumeProcessing(
  batch: MessageBatch,
  env: Env,
  ports: Ports,
): Promise<void> {
  for (const message of batch.messages) {
    const parsed = ProcessVideoMessageSchema.safeParse(message.body);
    if (!parsed.success) {
      console.error(
        JSON.stringify({ queue: batch.queue, dropped: message.id, reason: "malformed message" }),
      );
      message.ack();
      continue;
    }
    await settle(message, () => processVideo(env, ports, parsed.data));
  }
}

/** The indexing queue: make processed videos searchable and mark them completed. */
export async function consumeIndexing(batch: MessageBatch, env: Env, ports: Ports): Promise<void> {
  for (const message of batch.messages) {
    const parsed = IndexVideoMessageSchema.safeParse(message.body);
    if (!parsed.success) {
      console.error(
        JSON.stringify({ queue: batch.queue, dropped: message.id, reason: "malformed message" }),
      );
      message.ack();
      continue;
    }
    await settle(message, () => indexVideo(env, ports, parsed.data));
  }
}

/**
 * Dead letters of the processing and indexing queues: the video could not be processed
 * after every retry, so it is marked failed with a clear error instead of hanging.
 */
export async function consumeVideoDeadLetters(batch: MessageBatch, env: Env): Promise<void> {
  for (const message of batch.messages) {
    const parsed = ProcessVideoMessageSchema.or(IndexVideoMessageSchema).safeParse(message.body);
    if (parsed.success) {
      const video = await findVideoById(database(env.DB), parsed.data.video_id);
      if (video && video.status !== "completed" && video.status !== "failed") {
        await failVideo(env, video, {
          code: "processing-failed",
          title: "Processing failed",
          detail: "The video could not be processed after several attempts.",
          next_action:
            "Upload the video again; if it fails again, contact support with the video id.",
        });
      }
    }
    message.ack();
  }
}
