import type { EngineVideo } from "../../answer-engine/types";
import type { Database } from "../../db/client";
import { listSegmentsOfVideos, type SegmentRow } from "../../db/repos/segments";
import { findVideos, type VideoRow } from "../../db/repos/videos";
import type { ExtractionCoverage } from "../../domain/evidence";
import { videoMedia } from "../media/urls";

const NOTHING_EXTRACTED: ExtractionCoverage = {
  transcript: false,
  ocr: false,
  scene: false,
  metadata: false,
};

/**
 * A run's sources with their whole indexes, as the answer engine reads them, in `source_ids`
 * order: one query for the videos and one for their segments (none when `withSegments` is
 * false, for steps that ask no model). A source that is gone or in another workspace is left
 * out.
 */
export async function loadEngineVideos(
  db: Database,
  workspaceId: string,
  sourceIds: string[],
  withSegments = true,
): Promise<EngineVideo[]> {
  const byId = new Map((await findVideos(db, workspaceId, sourceIds)).map((v) => [v.id, v]));
  const segmentsOf = withSegments
    ? await listSegmentsOfVideos(db, [...byId.keys()])
    : new Map<string, SegmentRow[]>();
  return sourceIds.flatMap((id) => {
    const video = byId.get(id);
    return video ? [engineVideo(video, segmentsOf.get(id) ?? [])] : [];
  });
}

function engineVideo(video: VideoRow, segments: SegmentRow[]): EngineVideo {
  const media = videoMedia(video);
  return {
    id: video.id,
    title: media.title ?? video.filename,
    duration: video.duration ?? 0,
    coverage: media.coverage ?? NOTHING_EXTRACTED,
    ...(media.extent ? { extent: media.extent } : {}),
    limitations: media.limitations ?? [],
    segments: segments.map((segment) => ({
      id: segment.id,
      start: segment.startTime,
      end: segment.endTime,
      transcript: segment.transcript,
      scene_description: segment.sceneDescription,
      tags: segment.tags,
      evidence: segment.evidence,
    })),
  };
}
