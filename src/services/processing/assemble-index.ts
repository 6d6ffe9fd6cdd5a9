import { runBatch } from "../../db/client";
import {
  type SegmentRow,
  storeSegmentsStatements,
  trimSegmentsStatement,
} from "../../db/repos/segments";
import {
  findVideoById,
  updateVideoStatement,
  type VideoRow,
  videoIsIn,
} from "../../db/repos/videos";
import type { MediaProbe } from "../../domain/media";
import type { VideoMedia } from "../../domain/video";
import { PROCESSING_PROGRESS } from "../../domain/video";
import { chunks } from "../../lib/chunks";
import { nowIso } from "../../lib/clock";
import { indexKey, thumbnailKeyOf } from "../../lib/object-keys";
import { causedBy, type IndexVideoMessage } from "../../lib/queue-messages";
import type {
  UnderstandInput,
  VideoUnderstanding,
  WindowOutcomes,
} from "../../ports/media-understanding/port";
import { uploadedTextTracks } from "../captions/uploaded";
import type { Deps } from "../deps";
import { probeForWorkspace } from "../media/probe-privacy";
import { PROCESSING } from "./video-states";

/**
 * Statements of segments per D1 batch: each carries up to 1 MB of JSON rows, so a batch stays
 * a few MB and far inside the 30 s D1 gives a whole batch, however long the video.
 */
const STATEMENTS_PER_BATCH = 4;

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
 * Builds and stores a video's index from its probe, its uploaded caption files and its
 * windows' results: thumbnail and index document in R2, segments and measured facts in D1
 * (segments a few MB a batch, each replacing the one at its id; the last batch drops any
 * earlier segment past the new ones and moves the video to `understood`), then hands the
 * video to the search indexer. Guarded like every write of processing: a copy that ends after
 * the video completed changes nothing, and two copies at once store the same segments, never
 * removing one the other wrote.
 */
export async function assembleIndex(
  deps: Deps,
  video: VideoRow,
  kept: UnderstandInput,
  windows: WindowOutcomes,
): Promise<void> {
  const { db } = deps;
  // Again here: a probe stored before private tags were dropped at probing is cleaned too.
  const own = await probeForWorkspace(db, video.workspaceId, kept.probe);
  // Caption files uploaded for the video are heard like the file's own tracks, after them.
  const uploaded = await uploadedTextTracks(deps.bucket, video.id, own.textTracks.length);
  const probe = { ...own, textTracks: [...own.textTracks, ...uploaded] };
  const input = { ...kept, probe };
  const understanding = await deps.ports.understanding.assemble(input, windows);
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
  const guard = videoIsIn(video.id, PROCESSING);
  const stored = chunks(storeSegmentsStatements(db, rows, guard), STATEMENTS_PER_BATCH);
  const last = stored.pop() ?? [];
  for (const statements of stored) await runBatch(db, statements);
  await runBatch(db, [
    ...last,
    trimSegmentsStatement(db, video.id, rows.length, guard),
    updateVideoStatement(
      db,
      video.id,
      { progress: PROCESSING_PROGRESS.understood, media, updatedAt: createdAt },
      PROCESSING,
    ),
  ]);
  // A deletion since the video was read deleted the thumbnail its signed URLs point at, maybe
  // before the put above: it goes again, so those URLs answer 404 once this work ends.
  if (!(await findVideoById(db, video.id))) await deps.bucket.delete(thumbnailKey);
  const next: IndexVideoMessage = {
    type: "index-video",
    video_id: video.id,
    workspace_id: video.workspaceId,
    ...causedBy(video.workRequestId),
  };
  await deps.queues.indexing.send(next);
}
