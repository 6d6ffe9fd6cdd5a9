import { runBatch } from "../db/client";
import { insertEventStatement } from "../db/repos/events";
import { replaceSegmentsStatements, type SegmentRow } from "../db/repos/segments";
import {
  findVideoById,
  updateVideoIf,
  updateVideoStatement,
  type VideoRow,
  type VideoStatus,
  videoIsIn,
} from "../db/repos/videos";
import type { StoredError } from "../domain/async-errors";
import type { MediaProbe, RangeSource } from "../domain/media";
import type { IndexVideoMessage, ProcessVideoMessage } from "../domain/messages";
import type { VideoMedia } from "../domain/video";
import { PROCESSING_PROGRESS } from "../domain/video";
import { asyncError } from "../errors/async-codes";
import { nowIso } from "../lib/clock";
import { indexKey, sourceKey, thumbnailKeyOf } from "../lib/object-keys";
import { pauseAt } from "../lib/work-pause";
import type { VideoUnderstanding } from "../ports/media-understanding/port";
import type { Deps } from "./deps";
import { MediaError } from "./media/errors";
import { probeMedia } from "./media/probe";
import { r2RangeSource } from "./media/r2-source";
import { isFinal, presentVideo } from "./videos";

/** Stable segment ids: the same video and position always give the same id. */
function segmentId(videoId: string, position: number): string {
  return `seg_${videoId.slice("vid_".length)}_${String(position).padStart(5, "0")}`;
}

function mediaFacts(
  probe: MediaProbe,
  understanding: VideoUnderstanding,
  thumbnail: VideoMedia["thumbnail"],
): VideoMedia {
  return {
    container: probe.container,
    fps: probe.video?.fps ?? 0,
    width: probe.video?.width ?? 0,
    height: probe.video?.height ?? 0,
    video_codec: probe.video?.codec ?? "",
    audio: probe.audio
      ? {
          codec: probe.audio.codec,
          channels: probe.audio.channels,
          sample_rate: probe.audio.sampleRate,
        }
      : null,
    ...(thumbnail ? { thumbnail } : {}),
    engine: understanding.engine,
  };
}

/**
 * Statuses in which a video is still worked on. Every write of processing is conditional on
 * them, so of two deliveries of the same work (at least once delivery, sweep re-sends) only
 * one can end the video, and a late one cannot change a video that has ended.
 */
const UNFINISHED: readonly VideoStatus[] = ["queued", "processing"];
const PROCESSING: readonly VideoStatus[] = ["processing"];

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
 * Probes an uploaded video by ranged reads, builds its index through the
 * media-understanding port, stores it (segments in D1, the document and thumbnail in R2)
 * and hands it to the search indexer. Safe to run again for the same message.
 */
export async function processVideo(deps: Deps, message: ProcessVideoMessage): Promise<void> {
  const { db } = deps;
  const video = await findVideoById(db, message.video_id);
  if (!video || video.workspaceId !== message.workspace_id || isFinal(video)) return;
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
  const probed = await updateVideoIf(db, video.id, PROCESSING, {
    progress: PROCESSING_PROGRESS.probed,
    duration: probe.duration,
    frameCount: probe.video?.frameCount ?? 0,
    updatedAt: nowIso(),
  });
  if (!probed) return;
  await pauseAt(deps.config, "process:probed");
  await buildIndex(deps, video, probe, source);
  const next: IndexVideoMessage = {
    type: "index-video",
    video_id: video.id,
    workspace_id: video.workspaceId,
  };
  await deps.queues.indexing.send(next);
}

/**
 * Understands a probed video and stores its index: thumbnail and index document in R2,
 * segments and measured facts in D1 (one batch, replacing earlier segments).
 */
async function buildIndex(
  deps: Deps,
  video: VideoRow,
  probe: MediaProbe,
  source: RangeSource,
): Promise<void> {
  const { db, ports } = deps;
  const understanding = await ports.understanding.understand({
    videoId: video.id,
    filename: video.filename,
    contentType: video.contentType,
    objectKey: sourceKey(video.id),
    probe,
    source,
  });
  const { thumbnail } = understanding;
  const thumbnailKey = thumbnailKeyOf(video.id);
  await deps.bucket.put(thumbnailKey, thumbnail.bytes, {
    httpMetadata: { contentType: thumbnail.contentType },
  });
  const { coverArt: _cover, ...probeSummary } = probe;
  await deps.bucket.put(
    indexKey(video.id),
    JSON.stringify({
      video_id: video.id,
      probe: probeSummary,
      ...understanding,
      thumbnail: { key: thumbnailKey, source: thumbnail.source },
    }),
    { httpMetadata: { contentType: "application/json" } },
  );

  const createdAt = nowIso();
  const rows: SegmentRow[] = understanding.segments.map((segment) => ({
    id: segmentId(video.id, segment.index),
    videoId: video.id,
    workspaceId: video.workspaceId,
    position: segment.index,
    startTime: segment.start,
    endTime: segment.end,
    sceneDescription: segment.sceneDescription,
    transcript: segment.transcript,
    tags: segment.tags,
    evidence: segment.evidence,
    createdAt,
  }));
  const media = {
    ...mediaFacts(probe, understanding, {
      key: thumbnailKey,
      content_type: thumbnail.contentType,
      source: thumbnail.source,
    }),
    index_key: indexKey(video.id),
    coverage: understanding.coverage,
    extent: understanding.extent,
    limitations: understanding.limitations,
    tags: understanding.tags,
    title: understanding.title,
  };
  // Guarded like the rest: a copy that ends after the video completed changes nothing.
  await runBatch(db, [
    ...replaceSegmentsStatements(db, video.id, rows, videoIsIn(video.id, PROCESSING)),
    updateVideoStatement(
      db,
      video.id,
      { progress: PROCESSING_PROGRESS.understood, media, updatedAt: createdAt },
      PROCESSING,
    ),
  ]);
}
