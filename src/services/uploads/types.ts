import type { FieldError } from "../../errors/api-error";
import type { ErrorCode } from "../../errors/codes";
import type { Ports } from "../../ports";
import type { StorageTarget } from "../../ports/storage/port";
import type { Deps, WorkQueues } from "../deps";

/** The persisted state of one upload session. */
export interface SessionRecord {
  videoId: string;
  workspaceId: string;
  objectKey: string;
  filename: string;
  contentType: string;
  fileSize: number;
  strategy: "direct" | "multipart";
  chunkSize: number;
  totalChunks: number;
  uploadId: string | null;
  state: "open" | "completed" | "aborted" | "expired";
  createdAt: number;
  expiresAt: number;
  verifiedBytes: number;
  processingQueued: boolean;
  /**
   * Direct uploads: the key the target PUTs to, never served (null for multipart, whose
   * parts PUT to `objectKey` under an upload id that dies at completion or abort). Absent
   * on sessions opened before staging, whose target was `objectKey` itself.
   */
  stagingKey?: string | null;
  /** When the alarm deletes what late PUTs left at `stagingKey` (all targets expired by then). */
  cleanupAt?: number | null;
  /** The video was deleted: the session answers as absent; only the staging sweep is left. */
  deleted?: boolean;
}

/**
 * A recorded part receipt: the ETag the client reported, and the part's size as storage
 * held it when the receipt was recorded (null when storage did not hold that ETag then).
 * Receipts are the client's word; completion checks them against storage.
 *
 * Progress on the wire follows from them: `uploaded_bytes` sums the known sizes (what
 * storage confirmed for recorded parts), `reported_bytes` sums the sizes the recorded part
 * numbers must have, and `verified_bytes` stays 0 until completion verified the object.
 */
export interface PartReceipt {
  etag: string;
  size: number | null;
}

/** Receipts by part number. */
export type Receipts = Record<number, PartReceipt>;

/** Everything an upload session persists. */
export interface SessionState {
  session: SessionRecord;
  parts: Receipts;
}

/** What every session operation answers: the session, or why not. */
export type SessionResult =
  | {
      ok: true;
      session: SessionRecord;
      parts: Receipts;
      targets: StorageTarget[] | null;
    }
  | { ok: false; code: ErrorCode; detail: string; errors?: FieldError[] };

/**
 * What an operation answers, and the state its owner must persist before answering
 * (null when nothing changed).
 */
export interface SessionStep {
  result: SessionResult;
  next: SessionState | null;
}

/** What POST /videos hands the session. */
export interface OpenSession {
  videoId: string;
  workspaceId: string;
  filename: string;
  contentType: string;
  fileSize: number;
  /** The request creating the video, which the video records (the session does not keep it). */
  requestId: string;
}

/**
 * What the upload operations reach: D1, object storage, the processing queue, a clock; the
 * narrowing of `Deps` that lets tests hand in a storage double without every other port.
 */
export type UploadDeps = Pick<Deps, "db" | "clock"> & {
  ports: Pick<Ports, "storage">;
  queues: Pick<WorkQueues, "processing">;
};
