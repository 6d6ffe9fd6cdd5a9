import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";
import { serializer } from "../lib/serial";
import { createPorts } from "../ports";
import type { SigningContext } from "../ports/storage/port";
import { createDeps } from "../services/deps";
import {
  abortUpload,
  alarmTime,
  completeUpload,
  forgetUpload,
  mintTargets,
  type OpenSession,
  openSession,
  type ReportedPart,
  recordParts,
  type SessionRecord,
  type SessionResult,
  type SessionState,
  type SessionStep,
  settleUpload,
  startProcessing,
  type UploadDeps,
  viewSession,
} from "../services/uploads";

/**
 * One object per upload (named by the video id). It loads and persists the session,
 * serializes everything that touches it (receipts, targets, completion, abort) and expires
 * it through its alarm; what each operation does is in `src/services/uploads/`.
 */
export class UploadSession extends DurableObject<Env> {
  private readonly deps: UploadDeps = createDeps(this.env, createPorts(this.env));
  private readonly serialized = serializer();

  /** Opens the session: storage upload, video row, expiry alarm, first targets. */
  open(input: OpenSession, signing: SigningContext): Promise<SessionResult> {
    return this.serialized(async () =>
      this.persist(await openSession(this.deps, await this.load(), input, signing)),
    );
  }

  /** The session as persisted; never mints targets or changes anything. */
  async view(workspaceId: string): Promise<SessionResult> {
    return viewSession(this.deps, await this.load(), workspaceId).result;
  }

  /** Fresh targets for the parts not yet recorded or not confirmed at their size. */
  targets(workspaceId: string, signing: SigningContext): Promise<SessionResult> {
    return this.serialized(async () =>
      this.persist(await mintTargets(this.deps, await this.load(), workspaceId, signing)),
    );
  }

  /** Records part receipts; all or nothing. */
  recordParts(workspaceId: string, reported: ReportedPart[]): Promise<SessionResult> {
    return this.serialized(async () =>
      this.persist(await recordParts(this.deps, await this.load(), workspaceId, reported)),
    );
  }

  /** Verifies the stored bytes and starts processing once, as the work of `requestId`. */
  complete(workspaceId: string, requestId: string): Promise<SessionResult> {
    return this.serialized(async () => {
      const stored = await this.load();
      const verified = await completeUpload(this.deps, stored, workspaceId);
      const result = await this.persist(verified);
      const state = verified.next ?? stored;
      if (!result.ok || !state) return result;
      return this.persist(await startProcessing(this.deps, state, requestId));
    });
  }

  /** Aborts the storage session; the video is marked failed. */
  abort(workspaceId: string): Promise<SessionResult> {
    return this.serialized(async () =>
      this.persist(await abortUpload(this.deps, await this.load(), workspaceId)),
    );
  }

  /** The video was deleted: aborts an open upload and forgets the session's client data. */
  forget(workspaceId: string): Promise<SessionResult> {
    return this.serialized(async () =>
      this.persist(await forgetUpload(this.deps, await this.load(), workspaceId)),
    );
  }

  /** Expires an open session whose time is up; later sweeps its staging key. */
  override async alarm(): Promise<void> {
    await this.serialized(async () => {
      const state = await this.load();
      const next = await settleUpload(this.deps, state);
      if (next) await this.ctx.storage.put("session", next.session);
      const current = next ?? state;
      const due = current ? alarmTime(current.session) : null;
      if (due !== null) await this.ctx.storage.setAlarm(due);
    });
  }

  private async load(): Promise<SessionState | null> {
    const stored = await this.ctx.storage.get<SessionRecord | SessionState["parts"]>([
      "session",
      "parts",
    ]);
    const session = stored.get("session") as SessionRecord | undefined;
    if (!session) return null;
    return { session, parts: (stored.get("parts") as SessionState["parts"] | undefined) ?? {} };
  }

  /**
   * Persists what the step changed (both keys in one write) and schedules the alarm the
   * new state needs, then answers the step's result.
   */
  private async persist(step: SessionStep): Promise<SessionResult> {
    if (!step.next) return step.result;
    const { session, parts } = step.next;
    await this.ctx.storage.put({ session, parts });
    const due = alarmTime(session);
    if (due !== null) await this.ctx.storage.setAlarm(due);
    return step.result;
  }
}
