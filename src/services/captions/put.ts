import { findVideo, updateVideoIf } from "../../db/repos/videos";
import { upsertLeaseStatement } from "../../db/repos/work-leases";
import type { AuthContext } from "../../domain/caller";
import { PROCESSING_PROGRESS } from "../../domain/video";
import { ApiError, invalidRequest, notFound } from "../../errors/api-error";
import { nowIso } from "../../lib/clock";
import type { ProcessVideoMessage } from "../../lib/queue-messages";
import type { Deps } from "../deps";
import { CaptionFileError, type CaptionFormat, parseCaptionFile } from "./parse";
import { MAX_UPLOADED_LANGUAGES, storeCaptionFile, uploadedLanguages } from "./uploaded";

/** What an accepted caption upload answers. */
export interface CaptionUpload {
  video_id: string;
  language: string;
  origin: "captions-uploaded";
  format: CaptionFormat;
  cue_count: number;
  status: "processing";
}

/**
 * Keeps a caption file for a completed video (replacing the one uploaded for its language)
 * and re-indexes the video with it: the video moves back to `processing` at `probed` with a
 * fresh lease, the file is stored and processing is asked for. From there the ordinary path
 * assembles and indexes it again, and the sweep carries on a re-index a crash interrupted.
 */
export async function putCaptions(
  deps: Pick<Deps, "db" | "bucket" | "queues">,
  auth: Pick<AuthContext, "workspaceId">,
  input: {
    videoId: string;
    language: string;
    format: CaptionFormat;
    bytes: Uint8Array;
    /** The request uploading the captions: the re-index is its work. */
    requestId: string;
  },
): Promise<CaptionUpload> {
  const { db } = deps;
  const video = await findVideo(db, auth.workspaceId, input.videoId);
  if (!video) throw notFound("Video", input.videoId);
  if (video.status !== "completed") {
    throw new ApiError(
      "conflict",
      `Video ${video.id} is ${video.status}; captions can be uploaded once it is completed.`,
    );
  }
  let cueCount: number;
  try {
    cueCount = parseCaptionFile(input.format, input.bytes).length;
  } catch (error) {
    if (!(error instanceof CaptionFileError)) throw error;
    throw invalidRequest([
      {
        path: "body",
        message: `is not a valid ${input.format === "webvtt" ? "WebVTT" : "SRT"} file: ${error.message}`,
      },
    ]);
  }
  const languages = await uploadedLanguages(deps.bucket, video.id);
  if (!languages.includes(input.language) && languages.length >= MAX_UPLOADED_LANGUAGES) {
    throw new ApiError(
      "conflict",
      `Video ${video.id} already has uploaded captions in ${MAX_UPLOADED_LANGUAGES} languages, the most it keeps.`,
    );
  }
  // The lease, the move, then the file: a deletion before the move stops it (a completed
  // video's lease goes with the mark), one after it finds the lease fresh and its erasure waits,
  // so the file is never stored after the video was erased. Attempts of the first processing
  // must not count against the re-index.
  const now = nowIso();
  await upsertLeaseStatement(db, {
    subjectId: video.id,
    kind: "video",
    attempts: 0,
    activeFrom: now,
  });
  const moved = await updateVideoIf(db, video.id, ["completed"], {
    status: "processing",
    progress: PROCESSING_PROGRESS.probed,
    workRequestId: input.requestId,
    updatedAt: now,
  });
  if (!moved) {
    if (!(await findVideo(db, auth.workspaceId, video.id))) throw notFound("Video", video.id);
    // Another upload started a re-index first; this file was not stored.
    throw new ApiError(
      "conflict",
      `Video ${video.id} is being re-indexed; send the captions again once it is completed.`,
    );
  }
  await storeCaptionFile(deps.bucket, video.id, input.language, input.format, input.bytes);
  const message: ProcessVideoMessage = {
    type: "process-video",
    video_id: video.id,
    workspace_id: video.workspaceId,
    request_id: input.requestId,
  };
  await deps.queues.processing.send(message);
  return {
    video_id: video.id,
    language: input.language,
    origin: "captions-uploaded",
    format: input.format,
    cue_count: cueCount,
    status: "processing",
  };
}
