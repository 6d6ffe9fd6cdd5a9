import type { StoredPart } from "../../ports/storage/port";
import { expectedPartSize } from "./plan";
import { uploadKey } from "./results";
import type { Receipts, SessionResult, SessionState, UploadDeps } from "./types";

/** What verification found: the receipts storage confirmed, or why the upload is not done. */
export type Verified = { ok: true; parts: Receipts } | Extract<SessionResult, { ok: false }>;

function refusal(
  code: "upload-incomplete" | "upload-size-mismatch",
  detail: string,
): Extract<SessionResult, { ok: false }> {
  return { ok: false, code, detail };
}

/**
 * A direct upload is done when storage holds exactly `file_size` bytes at the target; those
 * bytes (pinned by their ETag) are then copied to the source key, which no target reaches.
 */
export async function verifyDirect(deps: UploadDeps, state: SessionState): Promise<Verified> {
  const { session } = state;
  const target = uploadKey(session);
  const object = await deps.ports.storage.headObject(target);
  if (!object)
    return refusal(
      "upload-incomplete",
      "No bytes have been stored at the target yet; PUT the file, then complete.",
    );
  if (object.size !== session.fileSize) {
    return refusal(
      "upload-size-mismatch",
      `Storage holds ${object.size} bytes but file_size is ${session.fileSize}; ` +
        "PUT the whole file again.",
    );
  }
  if (target !== session.objectKey) {
    const copy = await deps.ports.storage.copyObject(target, session.objectKey, object.etag);
    if (copy?.size !== session.fileSize) {
      return refusal(
        "upload-incomplete",
        "The bytes at the target changed while the upload was completing; complete again.",
      );
    }
    await deps.ports.storage.deleteObject(target);
  }
  return { ok: true, parts: state.parts };
}

/** The parts storage holds with the recorded ETags, in order, or why not. */
async function heldParts(deps: UploadDeps, state: SessionState): Promise<StoredPart[] | Verified> {
  const { session, parts } = state;
  const missing: number[] = [];
  for (let n = 1; n <= session.totalChunks; n++) if (!parts[n]) missing.push(n);
  if (missing.length > 0) {
    const shown = missing.slice(0, 20).join(", ");
    return refusal(
      "upload-incomplete",
      `Parts not recorded: ${shown}${missing.length > 20 ? ", …" : ""} ` +
        `(${missing.length} of ${session.totalChunks}).`,
    );
  }
  const stored = await deps.ports.storage.listParts(session.objectKey, session.uploadId ?? "");
  const byNumber = new Map((stored ?? []).map((part) => [part.partNumber, part]));
  const manifest: StoredPart[] = [];
  for (let n = 1; n <= session.totalChunks; n++) {
    const held = byNumber.get(n);
    if (!held || held.etag !== parts[n]?.etag) {
      return refusal(
        "upload-incomplete",
        `Storage holds no part ${n} with the recorded ETag ${parts[n]?.etag ?? ""}; ` +
          "upload the part again and record the ETag its PUT answered.",
      );
    }
    manifest.push(held);
  }
  return manifest;
}

/**
 * A multipart upload is done when storage holds every recorded part at the size its
 * position requires; then storage completes it and the object must be `file_size` bytes.
 */
export async function verifyMultipart(deps: UploadDeps, state: SessionState): Promise<Verified> {
  const { session } = state;
  const manifest = await heldParts(deps, state);
  if (!Array.isArray(manifest)) return manifest;
  let total = 0;
  for (const held of manifest) {
    const expected = expectedPartSize(session.fileSize, session.chunkSize, held.partNumber);
    if (held.size !== expected) {
      return refusal(
        "upload-size-mismatch",
        `Part ${held.partNumber} holds ${held.size} bytes; it must be ${expected} bytes. ` +
          "Upload the part again, record the ETag its PUT answered, then complete.",
      );
    }
    total += held.size;
  }
  if (total !== session.fileSize) {
    return refusal(
      "upload-size-mismatch",
      `The parts hold ${total} bytes but file_size is ${session.fileSize}.`,
    );
  }
  const size = await deps.ports.storage.completeMultipart(
    session.objectKey,
    session.uploadId ?? "",
    manifest,
  );
  if (size !== session.fileSize) {
    return refusal(
      "upload-size-mismatch",
      `The completed object is ${size} bytes but file_size is ${session.fileSize}.`,
    );
  }
  const confirmed: Receipts = {};
  for (const held of manifest) confirmed[held.partNumber] = { etag: held.etag, size: held.size };
  return { ok: true, parts: confirmed };
}
