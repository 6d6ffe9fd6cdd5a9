import { findVideoById } from "../src/db/repos/videos";
import { asyncError } from "../src/errors/async-codes";
import type { Deps } from "../src/services/deps";
import { failVideo, processVideo } from "../src/services/processing";
import { indexVideo } from "../src/services/search-index";
import { isFinal } from "../src/services/videos";
import { consumeEach } from "./consume";
import { IndexVideoMessageSchema, ProcessVideoMessageSchema } from "./messages";

/** The processing queue: probe and index uploaded videos. */
export function consumeProcessing(batch: MessageBatch, deps: Deps): Promise<void> {
  return consumeEach(batch, ProcessVideoMessageSchema, (message) => processVideo(deps, message));
}

/** The indexing queue: make processed videos searchable and mark them completed. */
export function consumeIndexing(batch: MessageBatch, deps: Deps): Promise<void> {
  return consumeEach(batch, IndexVideoMessageSchema, (message) => indexVideo(deps, message));
}

/**
 * Dead letters of the processing and indexing queues: the video could not be processed
 * after every retry, so it is marked failed with a clear error instead of hanging.
 */
export async function consumeVideoDeadLetters(batch: MessageBatch, deps: Deps): Promise<void> {
  for (const message of batch.messages) {
    const parsed = ProcessVideoMessageSchema.or(IndexVideoMessageSchema).safeParse(message.body);
    if (parsed.success) {
      const video = await findVideoById(deps.db, parsed.data.video_id);
      if (video && !isFinal(video)) {
        await failVideo(deps, video, asyncError("processing-failed"));
      }
    }
    message.ack();
  }
}
