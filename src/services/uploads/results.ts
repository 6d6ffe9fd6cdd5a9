import type { FieldError } from "../../errors/api-error";
import type { ErrorCode } from "../../errors/codes";
import type { StorageTarget } from "../../ports/storage/port";
import type {
  Receipts,
  SessionRecord,
  SessionResult,
  SessionState,
  SessionStep,
  UploadDeps,
} from "./types";

/** A refusal: the problem code, its detail and the fields at fault. */
export function refuse(code: ErrorCode, detail: string, errors?: FieldError[]): SessionResult {
  return errors === undefined ? { ok: false, code, detail } : { ok: false, code, detail, errors };
}

/** A refusal that changes nothing. */
export function refused(code: ErrorCode, detail: string, errors?: FieldError[]): SessionStep {
  return { result: refuse(code, detail, errors), next: null };
}

/** The answer for a workspace that holds no session under this video id. */
export function notFound(): SessionStep {
  return refused("resource-not-found", "No upload session exists for this video.");
}

/** The session as answered: an open session past its time reads as expired. */
export function answer(
  deps: UploadDeps,
  state: SessionState,
  targets: StorageTarget[] | null,
): SessionResult {
  const { session, parts } = state;
  const view =
    session.state === "open" && deps.clock.now() >= session.expiresAt
      ? { ...session, state: "expired" as const }
      : session;
  return { ok: true, session: view, parts, targets };
}

/** The session, when it exists and belongs to the workspace. */
export function owned(state: SessionState | null, workspaceId: string): SessionState | null {
  return state && state.session.workspaceId === workspaceId && !state.session.deleted
    ? state
    : null;
}

/** Why a session takes no more changes (aborted, completed, expired), or null. */
export function blocked(deps: UploadDeps, session: SessionRecord): SessionStep | null {
  if (session.state === "aborted") return refused("conflict", "The upload was aborted.");
  if (session.state === "completed") return refused("conflict", "The upload is already completed.");
  if (session.state === "expired" || deps.clock.now() >= session.expiresAt) {
    return refused(
      "upload-expired",
      "The upload session expired; start a new upload with POST /videos.",
    );
  }
  return null;
}

/** A state with new receipts. */
export function withParts(state: SessionState, parts: Receipts): SessionState {
  return { session: state.session, parts };
}

/** S3 ETags are quoted on the wire; receipts compare them bare. */
export function normalizeEtag(etag: string): string {
  return etag.trim().replace(/^W\//, "").replace(/^"|"$/g, "");
}

/** The key a direct upload's target PUTs to. */
export function uploadKey(session: SessionRecord): string {
  return session.stagingKey ?? session.objectKey;
}
