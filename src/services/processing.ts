import { runBatch } from "../db/client";
import { insertEventStatement } from "../db/repos/events";
import {
  insertWindowsStatements,
  type MediaWindowRow,
  pendingWindows,
  windowProgress,
} from "../db/repos/media-windows";
import {
  findVideoById,
  updateVideoIf,
  updateVideoStatement,
  type VideoRow,
  videoIsIn,
} from "../db/repos/videos";
import type { StoredError } from "../domain/async-errors";
import type { MediaProbe, RangeSource } from "../domain/media";
import { PROCESSING_PROGRESS } from "../domain/video";
import { asyncError } from "../errors/async-codes";
import { chunks } from "../lib/chunks";
import { nowIso } from "../lib/clock";
import { sourceKey } from "../lib/object-keys";
import type { ProcessVideoMessage, UnderstandWindowMessage } from "../lib/queue-messages";
import { pauseAt } from "../lib/work-pause";
import type { UnderstandInput } from "../ports/media-understanding/port";
import { assembleIndex } from "./assemble-index";
import type { Deps } from "./deps";
import { MediaError } from "./media/errors";
import { probeMedia } from "./media/probe";
import { loadClusterIndex, storeProbe } from "./media/probe-store";
import { r2RangeSource } from "./media/r2-source";
import { presentVideo } from "./presenters/video";
import { isFinal, PROCESSING, UNFINISHED } from "./video-states";

/** Queues take at most 100 messages in one `sendBatch`. */
const MAX_MESSAGES_PER_SEND = 100;

/**
 * Marks a video failed and announces it, in one batch, unless it has already ended: the
 * event is written while the video is unfinished, then the move makes it final.
 */
export async function failVideo(
  deps: Pick<Deps, "db">,
  video: VideoRow,
  error: StoredError,
): Promise<void> {
  const { db } = deps;
  const updatedAt = nowIso();
  const failed: VideoRow = { ...video, status: "failed", error, updatedAt };
  await db.batch([
    insertEventStatement(
      db,
      video.workspaceId,
      "video.failed",
      { video: presentVideo(failed) },
      videoIsIn(video.id, UNFINISHED),
    ),
    updateVideoStatement(db, video.id, { status: "failed", error, updatedAt }, UNFINISHED),
  ]);
}

/**
 * Probes an uploaded video by ranged reads and plans its understanding: the probe is kept for
 * later invocations, the engine's windows are recorded and handed to the windows queue (each
 * understood in an invocation of its own), or, when the engine plans none, the index is built
 * at once. Safe to run again for the same message: recorded windows are kept, not reset.
 */
export async function processVideo(deps: Deps, message: ProcessVideoMessage): Promise<void> {
  const { db } = deps;
  const video = await findVideoById(db, message.video_id);
  if (!video || video.workspaceId !== message.workspace_id || isFinal(video)) return;
  // A redelivered message for a planned video carries on from its plan, not from scratch.
  if (await resumePlannedVideo(deps, video)) return;
  await pauseAt(deps.config, "process:start");
  const started = await updateVideoIf(db, video.id, UNFINISHED, {
    status: "processing",
    progress: PROCESSING_PROGRESS.started,
    updatedAt: nowIso(),
  });
  if (!started) return;

  const source = r2RangeSource(deps.bucket, sourceKey(video.id), video.fileSize);
  let probe: MediaProbe;
  try {
    probe = await probeMedia(source, { filename: video.filename, contentType: video.contentType });
  } catch (error) {
    if (!(error instanceof MediaError)) throw error;
    await failVideo(
      deps,
      video,
      asyncError(error.code, { detail: error.message, next_action: error.nextAction }),
    );
    return;
  }
  await storeProbe(deps.bucket, video.id, probe);
  const input = understandInput(video, probe, source, deps.bucket);
  const planned = deps.ports.understanding.plan(input);
  const createdAt = nowIso();
  const windows: MediaWindowRow[] = planned.map((window, position) => ({
    videoId: video.id,
    position,
    kind: window.kind,
    plan: window.plan,
    state: "pending",
    result: null,
    claimedUntil: null,
    claimedBy: null,
    parts: null,
    updatedAt: createdAt,
  }));
  // The windows and the probed facts land together, so a video past `probed` has its plan.
  await runBatch(db, [
    ...insertWindowsStatements(db, windows),
    updateVideoStatement(
      db,
      video.id,
      {
        progress: PROCESSING_PROGRESS.probed,
        duration: probe.duration,
        frameCount: probe.video?.frameCount ?? 0,
        updatedAt: createdAt,
      },
      PROCESSING,
    ),
  ]);
  await pauseAt(deps.config, "process:probed");
  if (windows.length === 0) {
    await assembleIndex(deps, video, input, []);
    return;
  }
  await sendWindows(deps, video, await pendingWindows(db, video.id));
}

/**
 * Carries a planned video on (its windows recorded, processing past `probed`): sends its
 * pending windows again, or its assembly when none is pending. False when it has no plan.
 */
export async function resumePlannedVideo(
  deps: Pick<Deps, "db" | "queues">,
  video: VideoRow,
): Promise<boolean> {
  if (video.status !== "processing" || video.progress < PROCESSING_PROGRESS.probed) return false;
  if ((await windowProgress(deps.db, video.id)).total === 0) return false;
  const pending = await pendingWindows(deps.db, video.id);
  if (pending.length > 0) {
    await sendWindows(deps, video, pending);
  } else {
    await deps.queues.processing.send({
      type: "assemble-video",
      video_id: video.id,
      workspace_id: video.workspaceId,
    });
  }
  return true;
}

/** The engine's view of a stored video. */
export function understandInput(
  video: VideoRow,
  probe: MediaProbe,
  source: RangeSource,
  bucket: R2Bucket,
): UnderstandInput {
  const matroska = probe.container === "mkv" || probe.container === "webm";
  return {
    videoId: video.id,
    filename: video.filename,
    contentType: video.contentType,
    objectKey: sourceKey(video.id),
    probe,
    source,
    ...(matroska ? { clusterIndex: () => loadClusterIndex(bucket, video.id) } : {}),
  };
}

/**
 * Hands windows to their queues, at most 100 messages a send (the platform's limit): frames
 * windows to the frames queue, audio windows to the windows queue, so each kind is worked in
 * batches of its own and neither waits on the other's slower batches.
 */
export async function sendWindows(
  deps: Pick<Deps, "queues">,
  video: Pick<VideoRow, "id" | "workspaceId">,
  windows: readonly Pick<MediaWindowRow, "position" | "kind">[],
): Promise<void> {
  const byQueue = [
    { queue: deps.queues.windows, kind: "audio" },
    { queue: deps.queues.frames, kind: "frames" },
  ] as const;
  for (const { queue, kind } of byQueue) {
    const positions = windows.filter((w) => w.kind === kind).map((w) => w.position);
    for (const slice of chunks(positions, MAX_MESSAGES_PER_SEND)) {
      await queue.sendBatch(
        slice.map((position) => ({
          body: {
            type: "understand-window",
            video_id: video.id,
            workspace_id: video.workspaceId,
            position,
          } satisfies UnderstandWindowMessage,
        })),
      );
    }
  }
}
