import type { SigningContext, StorageTarget } from "../../ports/storage/port";
import { expectedPartSize, TARGET_TTL_MS } from "./plan";
import { answer, blocked, notFound, owned, uploadKey } from "./results";
import type { SessionState, SessionStep, UploadDeps } from "./types";

/**
 * Presigned targets for what is still to upload: the whole object (direct), or the parts
 * not recorded and the recorded parts storage has not confirmed at their size (so a part
 * found wrong at completion can be uploaded again after its URL expired).
 */
export async function presignTargets(
  deps: UploadDeps,
  state: SessionState,
  signing: SigningContext,
): Promise<StorageTarget[]> {
  const { session, parts } = state;
  const expiresAt = new Date(Math.min(deps.clock.now() + TARGET_TTL_MS, session.expiresAt));
  if (session.strategy === "direct" || session.uploadId === null) {
    return [
      await deps.ports.storage.presignPut(
        uploadKey(session),
        session.contentType,
        expiresAt,
        signing,
      ),
    ];
  }
  const targets: StorageTarget[] = [];
  for (let n = 1; n <= session.totalChunks; n++) {
    if (parts[n]?.size !== expectedPartSize(session.fileSize, session.chunkSize, n))
      targets.push(
        await deps.ports.storage.presignPart(
          session.objectKey,
          session.uploadId,
          n,
          expiresAt,
          signing,
        ),
      );
  }
  return targets;
}

/** POST /upload/targets: fresh targets while the session is open. */
export async function mintTargets(
  deps: UploadDeps,
  stored: SessionState | null,
  workspaceId: string,
  signing: SigningContext,
): Promise<SessionStep> {
  const state = owned(stored, workspaceId);
  if (!state) return notFound();
  const refusal = blocked(deps, state.session);
  if (refusal) return refusal;
  return { result: answer(deps, state, await presignTargets(deps, state, signing)), next: null };
}

/** GET /upload: the session as persisted; never mints targets or changes anything. */
export function viewSession(
  deps: UploadDeps,
  stored: SessionState | null,
  workspaceId: string,
): SessionStep {
  const state = owned(stored, workspaceId);
  return state ? { result: answer(deps, state, null), next: null } : notFound();
}
