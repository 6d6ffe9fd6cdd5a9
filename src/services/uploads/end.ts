import { updateVideoIf } from "../../db/repos/videos";
import type { StoredError } from "../../domain/async-errors";
import { asyncError } from "../../errors/async-codes";
import { nowIso } from "../../lib/clock";
import { TARGET_TTL_MS } from "./plan";
import { answer, blocked, notFound, owned, uploadKey } from "./results";
import type { SessionRecord, SessionState, SessionStep, UploadDeps } from "./types";

/**
 * When a session that stops taking changes now must sweep its staging key once more: a
 * target minted before now stays valid until at most now + TARGET_TTL_MS, and a PUT to it
 * still lands there. Null when there is no staging key.
 */
export function cleanupTime(deps: UploadDeps, session: SessionRecord): number | null {
  if (!session.stagingKey) return null;
  return Math.min(deps.clock.now() + TARGET_TTL_MS, session.expiresAt);
}

/** When the session's alarm must run next: expiry while open, then the staging sweep. */
export function alarmTime(session: SessionRecord): number | null {
  return session.state === "open" ? session.expiresAt : (session.cleanupAt ?? null);
}

/** Discards the bytes of an unfinished upload and fails its video. */
async function end(
  deps: UploadDeps,
  state: SessionState,
  ending: "aborted" | "expired",
  error: StoredError,
): Promise<SessionState> {
  const { session } = state;
  if (session.uploadId !== null)
    await deps.ports.storage.abortMultipart(session.objectKey, session.uploadId);
  else await deps.ports.storage.deleteObject(uploadKey(session));
  // Only a video still waiting for its upload: a deleted video's tombstone stays deleted.
  await updateVideoIf(deps.db, session.videoId, ["queued"], {
    status: "failed",
    error,
    updatedAt: nowIso(deps.clock.now()),
  });
  const cleanupAt = ending === "aborted" ? cleanupTime(deps, session) : null;
  return { ...state, session: { ...session, state: ending, cleanupAt } };
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
  const next = await end(deps, state, "aborted", asyncError("upload-aborted"));
  return { result: answer(deps, next, null), next };
}

/**
 * The video is being deleted: a session still open is aborted (its stored parts discarded),
 * then the session forgets the filename and receipts and answers as absent from then on. The
 * staging sweep stays scheduled, so a late PUT to a target handed out earlier is removed too.
 */
export async function forgetUpload(
  deps: UploadDeps,
  stored: SessionState | null,
  workspaceId: string,
): Promise<SessionStep> {
  const state = owned(stored, workspaceId);
  if (!state) return notFound();
  const ended =
    state.session.state === "open"
      ? await end(deps, state, "aborted", asyncError("upload-aborted"))
      : state;
  const next: SessionState = {
    parts: {},
    session: { ...ended.session, filename: "", deleted: true },
  };
  return { result: answer(deps, next, null), next };
}

/**
 * The alarm's work: expires an open session whose time is up (so no orphan bytes are
 * kept), and once every target has expired deletes what late PUTs left at the staging key.
 * `next` is the state to persist (null: unchanged).
 */
export async function settleUpload(
  deps: UploadDeps,
  state: SessionState | null,
): Promise<SessionState | null> {
  if (!state) return null;
  const { session } = state;
  const due = alarmTime(session);
  if (due === null || deps.clock.now() < due) return null;
  if (session.state === "open") {
    return end(deps, state, "expired", asyncError("upload-expired"));
  }
  await deps.ports.storage.deleteObject(uploadKey(session));
  return { ...state, session: { ...session, cleanupAt: null } };
}
