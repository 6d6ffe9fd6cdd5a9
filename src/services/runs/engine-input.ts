import type { Database } from "../../db/client";
import { listSegments } from "../../db/repos/segments";
import { findVideoById } from "../../db/repos/videos";
import type { EngineVideo } from "../../ports/answer-engine/port";
import type { ExtractionCoverage } from "../../ports/media-understanding/port";
import { videoMedia } from "../media-urls";

const NOTHING_EXTRACTED: ExtractionCoverage = {
  transcript: false,
  ocr: false,
  scene: false,
  metadata: false,
};

/** A run's sources with their whole indexes, as the answer engine reads them. */
export async function loadEngineVideos(
  db: Database,
  workspaceId: string,
  sourceIds: string[],
): Promise<EngineVideo[]> {
  const videos: EngineVideo[] = [];
  for (const id of sourceIds) {
    const video = await findVideoById(db, id);
    if (!video || video.workspaceId !== workspaceId) continue;
    const media = videoMedia(video);
    const segments = await listSegments(db, id);
    videos.push({
      id,
      title: media.title ?? video.filename,
      duration: video.duration ?? 0,
      coverage: media.coverage ?? NOTHING_EXTRACTED,
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
    });
  }
  return videos;
}
