import type { VideoRow } from "../../db/repos/videos";
import type { StoredError } from "../../domain/async-errors";
import type { ExtractionExtent } from "../../domain/evidence";
import { describeUnderstanding, type Understanding } from "../media/understood";
import { videoMedia } from "../media/urls";
import type { VideoUsageDto } from "./usage";

/** A video as clients see it (the spec's Video section); routes/videos/schemas.ts documents it. */
export interface VideoDto {
  id: string;
  filename: string;
  status: VideoRow["status"];
  progress: number;
  duration?: number;
  frame_count?: number;
  source: string;
  thumbnail_url?: string;
  error?: StoredError;
  error_message?: string;
  /** What processing inspected: per evidence kind, seconds, share of the duration, language. */
  media?: { coverage: ExtractionExtent; understood?: Understanding; limitations?: string[] };
  /** The request that created the video; absent on videos created before it was recorded. */
  request_id?: string;
  /** What processing it used (GET /videos/{video_id} only). */
  usage?: VideoUsageDto;
  created_at: string;
  updated_at: string;
}

/** Renders a video row for the wire; unknown measurements are left out. */
export function presentVideo(
  row: VideoRow,
  extras: { thumbnailUrl?: string | undefined; usage?: VideoUsageDto } = {},
): VideoDto {
  const dto: VideoDto = {
    id: row.id,
    filename: row.filename,
    status: row.status,
    progress: row.progress,
    source: row.source,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
  if (row.duration !== null) dto.duration = row.duration;
  if (row.frameCount !== null) dto.frame_count = row.frameCount;
  if (extras.thumbnailUrl !== undefined) dto.thumbnail_url = extras.thumbnailUrl;
  const media = videoMedia(row);
  if (media.extent !== undefined) {
    dto.media = { coverage: media.extent };
    const understood = describeUnderstanding(media, row.duration);
    if (understood !== undefined) dto.media.understood = understood;
    if (media.limitations !== undefined) dto.media.limitations = media.limitations;
  }
  if (row.error !== null) {
    dto.error = row.error;
    dto.error_message = row.error.detail;
  }
  if (row.requestId !== null) dto.request_id = row.requestId;
  if (extras.usage !== undefined) dto.usage = extras.usage;
  return dto;
}
