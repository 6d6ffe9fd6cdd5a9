import { findVideoById } from "../db/repos/videos";
import { asyncError } from "../errors/async-codes";
import { InvocationScope } from "../lib/invocation-scope";
import {
  IndexVideoMessageSchema,
  ProcessingMessageSchema,
  UnderstandWindowMessageSchema,
} from "../lib/queue-messages";
import { eraseVideo } from "../services/deletion/erase-video";
import { eraseWorkspace } from "../services/deletion/erase-workspace";
import type { Deps } from "../services/deps";
import { withLeaseHeartbeat } from "../services/lease-heartbeat";
import { failVideo, processVideo } from "../services/processing/process-video";
import { isFinal } from "../services/processing/video-states";
import {
  abandonVideoWindow,
  assembleVideo,
  understandVideoWindow,
} from "../services/processing/video-windows";
import { indexVideo } from "../services/search/index-video";
import { consumeEach, consumeSideBySide } from "./consume";

/**
 * Windows of one batch (at most 5, wrangler.toml, on `media-windows` and `media-frames`)
 * understood at once: they wait on models, paced by the limiter. Their subrequests are
 * counted by the production-sim bench (docs/decisions/processing.md).
 */
const WINDOWS_SIDE_BY_SIDE = 5;

/** The video a message works on, as its lease names it. */
function videoLease(message: { video_id: string }) {
  return { subjectId: message.video_id, kind: "video" as const };
}

/**
 * The processing queue: probe and plan uploaded videos, assemble their indexes, and erase
 * deleted videos and workspaces (without a heartbeat: erasure waits for leases to lapse).
 */
export function consumeProcessing(batch: MessageBatch, deps: Deps): Promise<void> {
  return consumeEach(batch, ProcessingMessageSchema, deps, async (deps, message) => {
    if (message.type === "erase-video") {
      await eraseVideo(deps, message);
      return;
    }
    if (message.type === "erase-workspace") {
      await eraseWorkspace(deps, message);
      return;
    }
    await withLeaseHeartbeat(deps, videoLease(message), () =>
      message.type === "process-video" ? processVideo(deps, message) : assembleVideo(deps, message),
    );
  });
}

/**
 * The windows queues: understand one window of a video each. The batch's windows of one video
 * share its probe (one R2 read) and its opened source (one read and parse of its index), let
 * go when the batch ends.
 */
export async function consumeWindows(batch: MessageBatch, deps: Deps): Promise<void> {
  const scope = new InvocationScope();
  try {
    await consumeSideBySide(
      batch,
      UnderstandWindowMessageSchema,
      deps,
      (deps, message) => understandVideoWindow(deps, message, scope),
      WINDOWS_SIDE_BY_SIDE,
    );
  } finally {
    scope.dispose();
  }
}

/** Dead letters of the windows queue: the window failed every retry and is recorded so. */
export function consumeWindowDeadLetters(batch: MessageBatch, deps: Deps): Promise<void> {
  return consumeEach(batch, UnderstandWindowMessageSchema, deps, (deps, message) =>
    abandonVideoWindow(deps, message),
  );
}

/** The indexing queue: make processed videos searchable and mark them completed. */
export function consumeIndexing(batch: MessageBatch, deps: Deps): Promise<void> {
  return consumeEach(batch, IndexVideoMessageSchema, deps, (deps, message) =>
    withLeaseHeartbeat(deps, videoLease(message), () => indexVideo(deps, message)),
  );
}

/**
 * Dead letters of the processing and indexing queues: the video could not be processed
 * after every retry, so it is marked failed with a clear error instead of hanging.
 */
export async function consumeVideoDeadLetters(batch: MessageBatch, deps: Deps): Promise<void> {
  for (const message of batch.messages) {
    const parsed = ProcessingMessageSchema.or(IndexVideoMessageSchema).safeParse(message.body);
    // An erasure that failed every retry is not a video's failure: the sweep sends it again.
    if (parsed.success && parsed.data.type !== "erase-workspace") {
      const video = await findVideoById(deps.db, parsed.data.video_id);
      if (video && !isFinal(video)) {
        await failVideo(deps, video, asyncError("processing-failed"));
      }
    }
    message.ack();
  }
}
