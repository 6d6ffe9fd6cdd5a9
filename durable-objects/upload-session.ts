import { DurableObject } from "cloudflare:workers";
import { database } from "../src/db/client";
import { insertVideo, updateVideo } from "../src/db/repos/videos";
import type { StoredError } from "../src/domain/async-errors";
import type { ProcessVideoMessage } from "../src/domain/messages";
import { PROCESSING_PROGRESS } from "../src/domain/video";
import type { Env } from "../src/env";
import type { FieldError } from "../src/errors/api-error";
import { asyncError } from "../src/errors/async-codes";
import type { ErrorCode } from "../src/errors/codes";
import { nowIso } from "../src/lib/clock";
import { sourceKey } from "../src/lib/object-keys";
import { createPorts } from "../src/ports";
import type {
  SigningContext,
  StorageTarget,
  StoredPart,
  UploadStorage,
} from "../src/ports/storage/port";
import {
  expectedPartSize,
  SESSION_TTL_MS,
  TARGET_TTL_MS,
  uploadPlan,
} from "../src/services/uploads";

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

/** What every session operation answers: the session, or why not. */
export type SessionResult =
  | {
      ok: true;
      session: SessionRecord;
      parts: Record<number, PartReceipt>;
      targets: StorageTarget[] | null;
    }
  | { ok: false; code: ErrorCode; detail: string; errors?: FieldError[] };

/** What POST /videos hands the session. */
export interface OpenSession {
  videoId: string;
  workspaceId: string;
  filename: string;
  contentType: string;
  fileSize: number;
}

function refuse(code: ErrorCode, detail: string, errors?: FieldError[]): SessionResult {
  return errors === undefined ? { ok: false, code, detail } : { ok: false, code, detail, errors };
}

/**
 * One object per upload (named by the video id). It serializes everything that touches
 * the session: receipts, targets, completion (which starts processing exactly once),
 * abort, and expiry through its alarm.
 */
export class UploadSession extends DurableObject<Env> {
  private readonly storage: UploadStorage = createPorts(this.env).storage;
  /** Storage calls let other requests in; mutations run one at a time through this chain. */
  private tail: Promise<unknown> = Promise.resolve();

  private serialized<T>(operation: () => Promise<T>): Promise<T> {
    const run = this.tail.then(operation, operation);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Opens the session: storage upload, video row, expiry alarm, first targets. */
  open(input: OpenSession, signing: SigningContext): Promise<SessionResult> {
    return this.serialized(async () => {
      const existing = await this.record();
      if (existing) return this.result(existing, await this.mint(existing, signing));
      const now = Date.now();
      const plan = uploadPlan(input.fileSize);
      const objectKey = sourceKey(input.videoId);
      const uploadId =
        plan.strategy === "multipart"
          ? await this.storage.createMultipart(objectKey, input.contentType)
          : null;
      const session: SessionRecord = {
        ...input,
        ...plan,
        objectKey,
        uploadId,
        state: "open",
        createdAt: now,
        expiresAt: now + SESSION_TTL_MS,
        verifiedBytes: 0,
        processingQueued: false,
      };
      try {
        await insertVideo(database(this.env.DB), {
          id: input.videoId,
          workspaceId: input.workspaceId,
          filename: input.filename,
          contentType: input.contentType,
          fileSize: input.fileSize,
          status: "queued",
          progress: PROCESSING_PROGRESS.queued,
          createdAt: nowIso(now),
          updatedAt: nowIso(now),
        });
      } catch (error) {
        if (uploadId !== null) await this.storage.abortMultipart(objectKey, uploadId);
        throw error;
      }
      await this.ctx.storage.put({ session, parts: {} });
      await this.ctx.storage.setAlarm(session.expiresAt);
      return this.result(session, await this.mint(session, signing));
    });
  }

  /** The session as persisted; never mints targets or changes anything. */
  async view(workspaceId: string): Promise<SessionResult> {
    const session = await this.owned(workspaceId);
    if (!session) return refuse("resource-not-found", "No upload session exists for this video.");
    return this.result(session, null);
  }

  /** Fresh targets for the parts not yet recorded or not confirmed at their size. */
  targets(workspaceId: string, signing: SigningContext): Promise<SessionResult> {
    return this.serialized(async () => {
      const session = await this.owned(workspaceId);
      const blocked = this.blocked(session);
      if (blocked || !session)
        return blocked ?? refuse("resource-not-found", "No upload session exists for this video.");
      return this.result(session, await this.mint(session, signing));
    });
  }

  /**
   * Records part receipts; all or nothing. A new part is recorded as reported (its size
   * too when storage holds it with that ETag); the same ETag again is a no-op; a different
   * ETag replaces a recorded one only when storage holds the part with the new ETag.
   * Sizes are checked at completion, so a wrong part is reported there and can be fixed.
   */
  recordParts(
    workspaceId: string,
    reported: { part_number: number; etag: string }[],
  ): Promise<SessionResult> {
    return this.serialized(async () => {
      const session = await this.owned(workspaceId);
      const blocked = this.blocked(session);
      if (blocked || !session)
        return blocked ?? refuse("resource-not-found", "No upload session exists for this video.");
      if (session.strategy !== "multipart" || session.uploadId === null) {
        return refuse(
          "conflict",
          "This is a direct upload: PUT the bytes to the target, then complete; " +
            "there are no parts to record.",
        );
      }
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
      if (errors.length > 0)
        return refuse("invalid-request", errors[0]?.message ?? "invalid parts", errors);

      const parts = await this.parts();
      const pending = [...seen].filter(([number, etag]) => parts[number]?.etag !== etag);
      if (pending.length === 0) return this.result(session, null);
      const stored = await this.storage.listParts(session.objectKey, session.uploadId);
      const byNumber = new Map((stored ?? []).map((part) => [part.partNumber, part]));
      const next = { ...parts };
      for (const [number, etag] of pending) {
        const held = byNumber.get(number);
        const confirmed = held !== undefined && held.etag === etag;
        const recorded = parts[number];
        if (recorded && !confirmed) {
          return refuse(
            "conflict",
            `Part ${number} is recorded with ETag ${recorded.etag} and storage holds no part ` +
              `${number} with ETag ${etag}; a recorded receipt is replaced only once the part ` +
              "is uploaded again and its PUT answered the new ETag.",
          );
        }
        next[number] = { etag, size: confirmed ? held.size : null };
      }
      await this.ctx.storage.put("parts", next);
      return this.result(session, null, next);
    });
  }

  /** Verifies the stored bytes and starts processing once. */
  complete(workspaceId: string): Promise<SessionResult> {
    return this.serialized(async () => {
      const session = await this.owned(workspaceId);
      if (!session) return refuse("resource-not-found", "No upload session exists for this video.");
      if (session.state === "completed") return this.startProcessing(session);
      const blocked = this.blocked(session);
      if (blocked) return blocked;
      const verified =
        session.strategy === "direct"
          ? await this.verifyDirect(session)
          : await this.verifyMultipart(session);
      if (!verified.ok) return verified;
      const completed: SessionRecord = {
        ...session,
        state: "completed",
        verifiedBytes: session.fileSize,
      };
      // Completion confirmed every part, so the receipts keep the sizes storage verified.
      await this.ctx.storage.put({ session: completed, parts: verified.parts });
      return this.startProcessing(completed);
    });
  }

  /** Aborts the storage session; the video is marked failed. */
  abort(workspaceId: string): Promise<SessionResult> {
    return this.serialized(async () => {
      const session = await this.owned(workspaceId);
      const blocked = this.blocked(session);
      if (blocked || !session)
        return blocked ?? refuse("resource-not-found", "No upload session exists for this video.");
      const aborted = await this.end(session, "aborted", asyncError("upload-aborted"));
      return this.result(aborted, null);
    });
  }

  /** Expires an open session whose time is up, so no orphan bytes are kept. */
  override async alarm(): Promise<void> {
    const session = await this.record();
    if (session?.state !== "open") return;
    if (Date.now() < session.expiresAt) {
      await this.ctx.storage.setAlarm(session.expiresAt);
      return;
    }
    await this.end(session, "expired", asyncError("upload-expired"));
  }

  private async end(
    session: SessionRecord,
    state: "aborted" | "expired",
    error: StoredError,
  ): Promise<SessionRecord> {
    if (session.uploadId !== null)
      await this.storage.abortMultipart(session.objectKey, session.uploadId);
    else await this.env.MEDIA_BUCKET.delete(session.objectKey);
    await updateVideo(database(this.env.DB), session.videoId, {
      status: "failed",
      error,
      updatedAt: nowIso(),
    });
    const ended: SessionRecord = { ...session, state };
    await this.ctx.storage.put("session", ended);
    return ended;
  }

  private async verifyDirect(session: SessionRecord): Promise<SessionResult> {
    const object = await this.env.MEDIA_BUCKET.head(session.objectKey);
    if (!object)
      return refuse(
        "upload-incomplete",
        "No bytes have been stored at the target yet; PUT the file, then complete.",
      );
    if (object.size !== session.fileSize) {
      return refuse(
        "upload-size-mismatch",
        `Storage holds ${object.size} bytes but file_size is ${session.fileSize}; ` +
          "PUT the whole file again.",
      );
    }
    return this.result(session, null);
  }

  private async verifyMultipart(session: SessionRecord): Promise<SessionResult> {
    const parts = await this.parts();
    const missing: number[] = [];
    for (let n = 1; n <= session.totalChunks; n++) if (!parts[n]) missing.push(n);
    if (missing.length > 0) {
      const shown = missing.slice(0, 20).join(", ");
      return refuse(
        "upload-incomplete",
        `Parts not recorded: ${shown}${missing.length > 20 ? ", …" : ""} ` +
          `(${missing.length} of ${session.totalChunks}).`,
      );
    }
    const stored = await this.storage.listParts(session.objectKey, session.uploadId ?? "");
    const byNumber = new Map((stored ?? []).map((part) => [part.partNumber, part]));
    const manifest: StoredPart[] = [];
    for (let n = 1; n <= session.totalChunks; n++) {
      const held = byNumber.get(n);
      if (!held || held.etag !== parts[n]?.etag) {
        return refuse(
          "upload-incomplete",
          `Storage holds no part ${n} with the recorded ETag ${parts[n]?.etag ?? ""}; ` +
            "upload the part again and record the ETag its PUT answered.",
        );
      }
      manifest.push(held);
    }
    let total = 0;
    for (const held of manifest) {
      const expected = expectedPartSize(session.fileSize, session.chunkSize, held.partNumber);
      if (held.size !== expected) {
        return refuse(
          "upload-size-mismatch",
          `Part ${held.partNumber} holds ${held.size} bytes; it must be ${expected} bytes. ` +
            "Upload the part again, record the ETag its PUT answered, then complete.",
        );
      }
      total += held.size;
    }
    if (total !== session.fileSize) {
      return refuse(
        "upload-size-mismatch",
        `The parts hold ${total} bytes but file_size is ${session.fileSize}.`,
      );
    }
    const size = await this.storage.completeMultipart(
      session.objectKey,
      session.uploadId ?? "",
      manifest,
    );
    if (size !== session.fileSize) {
      return refuse(
        "upload-size-mismatch",
        `The completed object is ${size} bytes but file_size is ${session.fileSize}.`,
      );
    }
    const confirmed: Record<number, PartReceipt> = {};
    for (const held of manifest) confirmed[held.partNumber] = { etag: held.etag, size: held.size };
    return this.result(session, null, confirmed);
  }

  private async startProcessing(session: SessionRecord): Promise<SessionResult> {
    if (!session.processingQueued) {
      const message: ProcessVideoMessage = {
        type: "process-video",
        video_id: session.videoId,
        workspace_id: session.workspaceId,
      };
      await this.env.PROCESSING_QUEUE.send(message);
      session = { ...session, processingQueued: true };
      await this.ctx.storage.put("session", session);
    }
    return this.result(session, null);
  }

  private async mint(session: SessionRecord, signing: SigningContext): Promise<StorageTarget[]> {
    const expiresAt = new Date(Math.min(Date.now() + TARGET_TTL_MS, session.expiresAt));
    if (session.strategy === "direct" || session.uploadId === null) {
      return [
        await this.storage.presignPut(session.objectKey, session.contentType, expiresAt, signing),
      ];
    }
    const parts = await this.parts();
    const targets: StorageTarget[] = [];
    for (let n = 1; n <= session.totalChunks; n++) {
      // Parts not recorded, and recorded parts storage has not confirmed at their size
      // (so a part found wrong at completion can be uploaded again after its URL expired).
      if (parts[n]?.size !== expectedPartSize(session.fileSize, session.chunkSize, n))
        targets.push(
          await this.storage.presignPart(
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

  private blocked(session: SessionRecord | null): SessionResult | null {
    if (!session) return null;
    if (session.state === "aborted") return refuse("conflict", "The upload was aborted.");
    if (session.state === "completed")
      return refuse("conflict", "The upload is already completed.");
    if (session.state === "expired" || Date.now() >= session.expiresAt) {
      return refuse(
        "upload-expired",
        "The upload session expired; start a new upload with POST /videos.",
      );
    }
    return null;
  }

  private async owned(workspaceId: string): Promise<SessionRecord | null> {
    const session = await this.record();
    return session && session.workspaceId === workspaceId ? session : null;
  }

  private async record(): Promise<SessionRecord | null> {
    return (await this.ctx.storage.get<SessionRecord>("session")) ?? null;
  }

  private async parts(): Promise<Record<number, PartReceipt>> {
    return (await this.ctx.storage.get<Record<number, PartReceipt>>("parts")) ?? {};
  }

  private async result(
    session: SessionRecord,
    targets: StorageTarget[] | null,
    parts?: Record<number, PartReceipt>,
  ): Promise<SessionResult> {
    const view =
      session.state === "open" && Date.now() >= session.expiresAt
        ? { ...session, state: "expired" as const }
        : session;
    return { ok: true, session: view, parts: parts ?? (await this.parts()), targets };
  }
}

/** S3 ETags are quoted on the wire; receipts compare them bare. */
export function normalizeEtag(etag: string): string {
  return etag.trim().replace(/^W\//, "").replace(/^"|"$/g, "");
}
