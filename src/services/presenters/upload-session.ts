import type { StorageTarget } from "../../ports/storage/port";
import type { PartReceipt, SessionRecord } from "../uploads";
import { expectedPartSize } from "../uploads";

/** An upload session as the API shows it (the spec's Upload session section). */
export interface UploadSessionDto {
  video_id: string;
  filename: string;
  content_type: string;
  state: SessionRecord["state"];
  strategy: SessionRecord["strategy"];
  file_size: number;
  chunk_size: number;
  total_chunks: number;
  completed_parts: number;
  received_parts: number[];
  uploaded_bytes: number;
  reported_bytes: number;
  verified_bytes: number;
  expires_at: string;
  /** The first target still to upload, when the call minted targets. */
  target?: StorageTarget;
  /** Targets minted by this call; empty on reads. */
  targets: StorageTarget[];
}

/** Renders an upload session for the wire. */
export function presentSession(
  session: SessionRecord,
  parts: Record<number, PartReceipt>,
  targets: StorageTarget[] | null,
): UploadSessionDto {
  const numbers = Object.keys(parts)
    .map(Number)
    .sort((a, b) => a - b);
  const direct = session.strategy === "direct";
  const done = session.state === "completed";
  const uploaded = direct
    ? done
      ? session.fileSize
      : 0
    : numbers.reduce((sum, n) => sum + (parts[n]?.size ?? 0), 0);
  const reported = direct
    ? done
      ? session.fileSize
      : 0
    : numbers.reduce((sum, n) => sum + expectedPartSize(session.fileSize, session.chunkSize, n), 0);
  const dto: UploadSessionDto = {
    video_id: session.videoId,
    filename: session.filename,
    content_type: session.contentType,
    state: session.state,
    strategy: session.strategy,
    file_size: session.fileSize,
    chunk_size: session.chunkSize,
    total_chunks: session.totalChunks,
    completed_parts: direct ? (done ? 1 : 0) : numbers.length,
    received_parts: direct ? (done ? [1] : []) : numbers,
    uploaded_bytes: uploaded,
    reported_bytes: reported,
    verified_bytes: session.verifiedBytes,
    expires_at: new Date(session.expiresAt).toISOString(),
    targets: targets ?? [],
  };
  const first = targets?.[0];
  if (first) dto.target = first;
  return dto;
}
