import { updateVideo } from "../../db/repos/videos";
import type { StoredError } from "../../db/schema/videos";
import { nowIso } from "../../lib/clock";
import { answer, blocked, notFound, owned } from "./results";
import type { SessionState, SessionStep, UploadDeps } from "./types";

/** Discards the bytes of an unfinished upload and fails its video. */
async function end(
  deps: UploadDeps,
  state: SessionState,
  ending: "aborted" | "expired",
  error: StoredError,
): Promise<SessionState> {
  const { session } = state;
  if (session.uploadId !== null)
    await deps.storage.abortMultipart(session.objectKey, session.uploadId);
  else await deps.storage.deleteObject(session.objectKey);
  await updateVideo(deps.db, session.videoId, {
    status: "failed",
    error,
    updatedAt: nowIso(deps.now()),
  });
  return { ...state, session: { ...session, state: ending } };
}

/** DELETE /upload: aborts the storage upload; the video is marked failed. */
export async function abortUpload(
  deps: UploadDeps,
  stored: SessionState | null,
  workspaceId: string,
): Promise<SessionStep> {
  const state = owned(stored, workspaceId);
  if (!state) return notFound();
  const refusal = blocked(deps, state.session);
  if (refusal) return refusal;
  const next = await end(deps, state, "aborted", {
    code: "upload-aborted",
    title: "The upload was aborted",
    detail: "The upload session was aborted before it completed; no bytes were kept.",
    next_action: "Start a new upload with POST /videos.",
  });
  return { result: answer(deps, next, null), next };
}

/**
 * Expires an open session whose time is up, so no orphan bytes are kept. Answers null
 * when there is nothing to do yet (`retryAt` says when to look again) or ever.
 */
export async function expireUpload(
  deps: UploadDeps,
  state: SessionState | null,
): Promise<{ next: SessionState | null; retryAt: number | null }> {
  if (state?.session.state !== "open") return { next: null, retryAt: null };
  if (deps.now() < state.session.expiresAt) return { next: null, retryAt: state.session.expiresAt };
  const next = await end(deps, state, "expired", {
    code: "upload-expired",
    title: "The upload session expired",
    detail: "The upload was not completed within 24 hours; its bytes were discarded.",
    next_action: "Start a new upload with POST /videos.",
  });
  return { next, retryAt: null };
}
