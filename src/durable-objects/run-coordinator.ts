import { DurableObject } from "cloudflare:workers";
import type { BatchItem } from "drizzle-orm/batch";
import { runBatch } from "../db/client";
import { insertEventStatement } from "../db/repos/events";
import {
  findRunById,
  insertRunStatements,
  insertSnapshotStatement,
  type RunRow,
  type RunStatus,
  type SnapshotRow,
  updateRunStatement,
} from "../db/repos/runs";
import { countStatements, runFindingsStatement } from "../db/repos/usage";
import {
  deleteLeaseStatement,
  markActiveStatement,
  upsertLeaseStatement,
} from "../db/repos/work-leases";
import { setLatestRunStatement } from "../db/repos/workflows";
import type { StoredError } from "../domain/async-errors";
import { dayOf } from "../domain/usage";
import type { Env } from "../env";
import { nowIso } from "../lib/clock";
import type { RunAnalysisMessage } from "../lib/queue-messages";
import { serializer } from "../lib/serial";
import { createPorts } from "../ports";
import { createDeps, type Deps } from "../services/deps";
import { presentRun } from "../services/presenters/run";
import { reportStatements } from "../services/reports/create-reports";
import type { RunOutcome } from "../services/runs/outcome";

/** The state machine's position, persisted in the object. */
export interface RunState {
  runId: string;
  status: RunStatus;
  cancelRequested: boolean;
}

const FINAL: ReadonlySet<RunStatus> = new Set(["completed", "failed", "canceled"]);
const SUB_STATE = {
  queued: "accepted",
  processing: "running",
  completed: "completed",
  failed: "failed",
  canceled: "canceled",
} as const;

/**
 * The legal moves of the spec's States and transitions section: queued → processing → completed |
 * failed | canceled.
 */
export function isLegal(from: RunStatus, to: RunStatus): boolean {
  if (from === "queued") return to === "processing" || to === "failed" || to === "canceled";
  if (from === "processing") return to === "completed" || to === "failed" || to === "canceled";
  return false;
}

/**
 * One object per run owns its state machine. Every move is checked here, written to D1
 * (with its event, in one batch) and only then remembered, so nothing is visible before it
 * is persisted and no illegal move can happen, whatever the interleaving of API calls and
 * redelivered queue messages.
 */
export class RunCoordinator extends DurableObject<Env> {
  private readonly serialized = serializer();
  /** Built once per instance: D1 and the analysis queue are all the object reaches. */
  private readonly deps: Pick<Deps, "db" | "queues"> = createDeps(this.env, createPorts(this.env));

  /** Creates the run (row and snapshots) and queues it. */
  create(run: RunRow, snapshots: SnapshotRow[], delaySeconds: number): Promise<RunState> {
    return this.serialized(async () => {
      const existing = await this.state();
      if (existing) return existing;
      const db = this.deps.db;
      const state: RunState = { runId: run.id, status: "queued", cancelRequested: false };
      // State first: a row must never exist that its object does not know (the sweep moves
      // runs through this object). Its lease starts when the run is due to start.
      await this.ctx.storage.put("state", state);
      const activeFrom = nowIso(Date.now() + delaySeconds * 1000);
      // Counted with the row's insert, which a second insert of the same id would fail.
      const counted = [{ metric: "runs" as const, key: "", value: 1 }];
      await runBatch(db, [
        ...countStatements(db, { workspaceId: run.workspaceId }, dayOf(run.createdAt), counted),
        ...insertRunStatements(db, run, snapshots),
        upsertLeaseStatement(db, { subjectId: run.id, kind: "run", attempts: 0, activeFrom }),
        ...(run.workflowId === null
          ? []
          : [setLatestRunStatement(db, run.workflowId, run.id, run.createdAt)]),
      ]);
      const message: RunAnalysisMessage = {
        type: "run-analysis",
        run_id: run.id,
        workspace_id: run.workspaceId,
        request_id: run.requestId,
      };
      await this.deps.queues.analysis.send(message, delaySeconds > 0 ? { delaySeconds } : {});
      return state;
    });
  }

  /** The consumer starts (or, after a crash, resumes) the run; false when it must not run. */
  begin(): Promise<boolean> {
    return this.serialized(async () => {
      const state = await this.state();
      if (!state) return false;
      if (state.status === "processing") return true;
      if (state.status !== "queued") return false;
      await this.move(state, "processing", {});
      return true;
    });
  }

  /** Between steps: stops a run whose cancellation was requested. Returns whether to go on. */
  checkpoint(): Promise<boolean> {
    return this.serialized(async () => {
      const state = await this.state();
      if (state?.status !== "processing") return false;
      if (!state.cancelRequested) return true;
      await this.move(state, "canceled", {});
      return false;
    });
  }

  /**
   * Completes the run with its output and reports (or cancels it, if that was asked
   * meanwhile). Answers and findings are already stored, step by step; what crosses this call
   * is bounded whatever the run's size (counts, a summary, the few report rows).
   */
  finish(outcome: RunOutcome): Promise<RunStatus> {
    return this.serialized(async () => {
      const state = await this.state();
      if (state?.status !== "processing") return state?.status ?? "failed";
      if (state.cancelRequested) return (await this.move(state, "canceled", {})).status;
      const db = this.deps.db;
      const extra = [
        insertSnapshotStatement(db, outcome.output),
        ...reportStatements(db, outcome.reports ?? []),
        // The move happens once, and makes the findings readable: they count with it.
        runFindingsStatement(db, state.runId, dayOf(nowIso())),
      ];
      return (
        await this.move(
          state,
          "completed",
          {
            outputSnapshotId: outcome.output.id,
            usage: outcome.usage,
            limitations: outcome.limitations,
            resultState: outcome.resultState,
            reasonCode: outcome.reasonCode,
            engine: outcome.engine,
            ...(outcome.summary === undefined ? {} : { summary: outcome.summary }),
            ...(outcome.reportId === undefined ? {} : { reportId: outcome.reportId }),
          },
          extra,
          outcome.answers,
        )
      ).status;
    });
  }

  /** Fails a run that has not ended. */
  fail(error: StoredError, limitations: string[]): Promise<RunStatus> {
    return this.serialized(async () => {
      const state = await this.state();
      if (!state || FINAL.has(state.status)) return state?.status ?? "failed";
      return (
        await this.move(state, "failed", {
          error,
          reasonCode: error.code,
          limitations,
          resultState: "error",
        })
      ).status;
    });
  }

  /** Cancels a queued run at once; asks a running one to stop at its next step; leaves ended ones. */
  cancel(): Promise<RunState | null> {
    return this.serialized(async () => {
      const state = await this.state();
      if (!state || FINAL.has(state.status)) return state;
      if (state.status === "queued") return this.move(state, "canceled", {});
      if (state.cancelRequested) return state;
      await updateRunStatement(this.deps.db, state.runId, {
        cancelRequested: true,
        updatedAt: nowIso(),
      });
      const next = { ...state, cancelRequested: true };
      await this.ctx.storage.put("state", next);
      return next;
    });
  }

  /**
   * Ends a run whose cancellation was requested but whose work is gone (the sweep found no
   * progress within a lease), so a cancel always ends the run.
   */
  abandon(): Promise<RunState | null> {
    return this.serialized(async () => {
      const state = await this.state();
      if (!state || FINAL.has(state.status)) return state;
      return this.move(state, "canceled", {});
    });
  }

  /** The persisted state, for tests and diagnostics. */
  async current(): Promise<RunState | null> {
    return this.state();
  }

  /**
   * The remembered state, caught up with D1. Every move writes D1 first and the object's
   * storage second, so a crash between the two leaves D1 ahead; adopting its status (and a
   * recorded cancel request) keeps a redelivered message from moving the run again.
   */
  private async state(): Promise<RunState | null> {
    const stored = (await this.ctx.storage.get<RunState>("state")) ?? null;
    if (!stored || FINAL.has(stored.status)) return stored;
    const row = await findRunById(this.deps.db, stored.runId);
    if (!row) return stored;
    if (row.status === stored.status && row.cancelRequested === stored.cancelRequested)
      return stored;
    const next: RunState = { ...stored, status: row.status, cancelRequested: row.cancelRequested };
    await this.ctx.storage.put("state", next);
    return next;
  }

  private async run(state: RunState): Promise<RunRow> {
    const run = await findRunById(this.deps.db, state.runId);
    if (!run) throw new Error("the run's row is missing");
    return run;
  }

  private async move(
    state: RunState,
    to: RunStatus,
    change: Partial<RunRow>,
    extra: BatchItem<"sqlite">[] = [],
    answers: RunOutcome["answers"] = [],
  ): Promise<RunState> {
    if (!isLegal(state.status, to))
      throw new Error(`illegal run transition ${state.status} → ${to}`);
    const db = this.deps.db;
    const updatedAt = nowIso();
    const moveChange = { ...change, status: to, subState: SUB_STATE[to], updatedAt };
    const statements = [...extra, updateRunStatement(db, state.runId, moveChange)];
    // A start replaces a deferred start time in the lease; an ended run leaves the sweep.
    statements.push(
      FINAL.has(to)
        ? deleteLeaseStatement(db, state.runId)
        : markActiveStatement(db, state.runId, updatedAt),
    );
    if (FINAL.has(to)) {
      // Only a final move announces the run, and only the announcement needs the whole row.
      const moved: RunRow = { ...(await this.run(state)), ...moveChange };
      // The event carries the run exactly as GET /runs/{id} shows it at that moment.
      const run = presentRun(moved, { answers });
      statements.push(
        insertEventStatement(db, {
          workspaceId: moved.workspaceId,
          type: `run.${to}`,
          data: { run },
          requestId: moved.requestId,
        }),
      );
    }
    await runBatch(db, statements);
    const next: RunState = { ...state, status: to };
    await this.ctx.storage.put("state", next);
    return next;
  }
}
