import { insertVideo } from "../../db/repos/videos";
import { PROCESSING_PROGRESS } from "../../domain/video";
import { nowIso } from "../../lib/clock";
import { sourceKey, stagingKey } from "../../lib/object-keys";
import type { SigningContext } from "../../ports/storage/port";
import { SESSION_TTL_MS, uploadPlan } from "./plan";
import { answer } from "./results";
import { presignTargets } from "./targets";
import type { OpenSession, SessionRecord, SessionState, SessionStep, UploadDeps } from "./types";

/**
 * POST /videos: opens the storage upload, inserts the video row and mints the first
 * targets. Opening an existing session again answers it with fresh targets.
 */
export async function openSession(
  deps: UploadDeps,
  existing: SessionState | null,
  input: OpenSession,
  signing: SigningContext,
): Promise<SessionStep> {
  if (existing) {
    return {
      result: answer(deps, existing, await presignTargets(deps, existing, signing)),
      next: null,
    };
  }
  const { requestId, ...fields } = input;
  const now = deps.clock.now();
  const plan = uploadPlan(input.fileSize);
  const objectKey = sourceKey(input.videoId);
  const uploadId =
    plan.strategy === "multipart"
      ? await deps.ports.storage.createMultipart(objectKey, input.contentType)
      : null;
  const session: SessionRecord = {
    ...fields,
    ...plan,
    objectKey,
    uploadId,
    // Direct targets cannot be revoked, so they never point at the served object.
    stagingKey: uploadId === null ? stagingKey(input.videoId, crypto.randomUUID()) : null,
    cleanupAt: null,
    state: "open",
    createdAt: now,
    expiresAt: now + SESSION_TTL_MS,
    verifiedBytes: 0,
    processingQueued: false,
  };
  try {
    await insertVideo(deps.db, {
      id: input.videoId,
      workspaceId: input.workspaceId,
      filename: input.filename,
      contentType: input.contentType,
      fileSize: input.fileSize,
      status: "queued",
      progress: PROCESSING_PROGRESS.queued,
      requestId,
      createdAt: nowIso(now),
      updatedAt: nowIso(now),
    });
  } catch (error) {
    if (uploadId !== null) await deps.ports.storage.abortMultipart(objectKey, uploadId);
    throw error;
  }
  const next: SessionState = { session, parts: {} };
  return { result: answer(deps, next, await presignTargets(deps, next, signing)), next };
}
