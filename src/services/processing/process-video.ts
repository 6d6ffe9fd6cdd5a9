import { insertEventStatement } from "../../db/repos/events";
import {
  findVideoById,
  updateVideoIf,
  updateVideoStatement,
  type VideoRow,
  videoIsIn,
} from "../../db/repos/videos";
import type { StoredError } from "../../domain/async-errors";
import type { MediaProbe, RangeSource } from "../../domain/media";
import { PROCESSING_PROGRESS } from "../../domain/video";
import { asyncError } from "../../errors/async-codes";
import { nowIso } from "../../lib/clock";
import { sourceKey } from "../../lib/object-keys";
import type { ProcessVideoMessage } from "../../lib/queue-messages";
import { pauseAt } from "../../lib/work-pause";
import { MediaError } from "../../media/errors";
import { probeMedia } from "../../media/probe";
import { r2RangeSource } from "../../media/r2-source";
import type { UnderstandInput } from "../../ports/media-understanding/port";
import type { Deps } from "../deps";
import { probeForWorkspace } from "../media/probe-privacy";
import { loadClusterIndex, loadProbe, storeProbe } from "../media/probe-store";
import { presentVideo } from "../presenters/video";
import { assembleIndex } from "./assemble-index";
import { isFinal, UNFINISHED } from "./video-states";
import { recordPlan, resumePlannedVideo, sendPendingWindows } from "./window-plan";

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
      {
        workspaceId: video.workspaceId,
        type: "video.failed",
        data: { video: presentVideo(failed) },
        requestId: video.workRequestId,
      },
      videoIsIn(video.id, UNFINISHED),
    ),
    updateVideoStatement(db, video.id, { status: "failed", error, updatedAt }, UNFINISHED),
  ]);
}

/**
 * Probes an uploaded video by ranged reads and plans its understanding: the probe is kept for
 * later invocations, the engine's windows are recorded and handed to the windows queue (each
 * understood in an invocation of its own), or, when the engine plans none, the index is built
 * at once. Safe to run again for the same message: recorded windows are kept, not reset, and
 * planning goes on from where a crash left it.
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
  // A delivery after a crash past the probe plans from the probe kept, not probing again
  // (2.6 s of CPU for a 50-hour MP4, over a minute for a large Matroska file).
  let probe = video.status === "processing" ? await loadProbe(deps.bucket, video.id) : null;
  if (!probe) {
    try {
      probe = await probeMedia(source, {
        filename: video.filename,
        contentType: video.contentType,
      });
      // Private tags are dropped here, before the probe is stored or anything reads it.
      probe = await probeForWorkspace(db, video.workspaceId, probe);
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
  }
  const input = { ...understandInput(video, probe, source, deps.bucket), log: deps.log };
  const planned = deps.ports.understanding.plan(input);
  await recordPlan(deps, video, probe, planned);
  await pauseAt(deps.config, "process:probed");
  if (planned.length === 0) {
    await assembleIndex(deps, video, input, []);
    return;
  }
  await sendPendingWindows(deps, video);
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
