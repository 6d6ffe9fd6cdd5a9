import type { FieldError } from "../../errors/api-error";
import { answer, blocked, normalizeEtag, notFound, owned, refused, withParts } from "./results";
import type { Receipts, SessionRecord, SessionState, SessionStep, UploadDeps } from "./types";

/** A part receipt as the client reports it. */
export interface ReportedPart {
  part_number: number;
  etag: string;
}

/** The receipts of one call by part number (ETags bare), or the fields at fault. */
function readReceipts(
  session: SessionRecord,
  reported: ReportedPart[],
): Map<number, string> | FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Map<number, string>();
  reported.forEach((part, i) => {
    if (part.part_number > session.totalChunks) {
      errors.push({
        path: `parts[${i}].part_number`,
        message: `must be at most ${session.totalChunks} (total_chunks)`,
      });
    }
    const earlier = seen.get(part.part_number);
    if (earlier !== undefined && earlier !== normalizeEtag(part.etag)) {
      errors.push({
        path: `parts[${i}].etag`,
        message: "differs from another receipt for the same part",
      });
    }
    seen.set(part.part_number, normalizeEtag(part.etag));
  });
  return errors.length > 0 ? errors : seen;
}

/**
 * PUT /upload/parts: records part receipts; all or nothing. A new part is recorded as
 * reported (its size too when storage holds it with that ETag); the same ETag again is a
 * no-op; a different ETag replaces a recorded one only when storage holds the part with
 * the new ETag. Sizes are checked at completion, so a wrong part is reported there and
 * can be fixed.
 */
export async function recordParts(
  deps: UploadDeps,
  stored: SessionState | null,
  workspaceId: string,
  reported: ReportedPart[],
): Promise<SessionStep> {
  const state = owned(stored, workspaceId);
  if (!state) return notFound();
  const { session, parts } = state;
  const refusal = blocked(deps, session);
  if (refusal) return refusal;
  if (session.strategy !== "multipart" || session.uploadId === null) {
    return refused(
      "conflict",
      "This is a direct upload: PUT the bytes to the target, then complete; " +
        "there are no parts to record.",
    );
  }
  const receipts = readReceipts(session, reported);
  if (Array.isArray(receipts))
    return refused("invalid-request", receipts[0]?.message ?? "invalid parts", receipts);

  const pending = [...receipts].filter(([number, etag]) => parts[number]?.etag !== etag);
  if (pending.length === 0) return { result: answer(deps, state, null), next: null };
  const held = await deps.ports.storage.listParts(session.objectKey, session.uploadId);
  const byNumber = new Map((held ?? []).map((part) => [part.partNumber, part]));
  const next: Receipts = { ...parts };
  for (const [number, etag] of pending) {
    const part = byNumber.get(number);
    const confirmed = part !== undefined && part.etag === etag;
    const recorded = parts[number];
    if (recorded && !confirmed) {
      return refused(
        "conflict",
        `Part ${number} is recorded with ETag ${recorded.etag} and storage holds no part ` +
          `${number} with ETag ${etag}; a recorded receipt is replaced only once the part ` +
          "is uploaded again and its PUT answered the new ETag.",
      );
    }
    next[number] = { etag, size: confirmed ? part.size : null };
  }
  const changed = withParts(state, next);
  return { result: answer(deps, changed, null), next: changed };
}
