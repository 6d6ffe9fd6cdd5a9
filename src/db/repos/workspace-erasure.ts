import {
  and,
  asc,
  eq,
  exists,
  gt,
  inArray,
  isNotNull,
  isNull,
  lt,
  ne,
  notExists,
  sql,
} from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { AuditedBy } from "../../domain/audit";
import type { Database } from "../client";
import {
  answers,
  findings,
  reports,
  runSnapshots,
  runSteps,
  runs,
  videos,
  workLeases,
  workspaces,
} from "../schema";
import { auditStatement } from "./audit-log";
import { deletePage } from "./workspace-erasure-tables";
import type { WorkspaceRow } from "./workspaces";

const ACTIVE_RUN = ["queued", "processing"] as const;

/** A workspace row being deleted: `deleted_at` is set. */
export type DeletingWorkspace = WorkspaceRow & { deletedAt: string };

function deleting(rows: WorkspaceRow[]): DeletingWorkspace | null {
  const [row] = rows;
  return row?.deletedAt ? { ...row, deletedAt: row.deletedAt } : null;
}

/**
 * Marks a workspace deleting, unless it already is, with the audit entry of the request that
 * marks it (a repeat records nothing); null when there is no such live workspace. From this
 * statement on no key of it authenticates and the admin API answers 404 for it.
 */
export async function markWorkspaceDeleting(
  db: Database,
  id: string,
  at: string,
  by: AuditedBy,
): Promise<DeletingWorkspace | null> {
  const live = and(eq(workspaces.id, id), isNull(workspaces.deletedAt));
  const [, rows] = await db.batch([
    auditStatement(
      db,
      {
        workspaceId: id,
        action: "workspace.deletion_requested",
        target: { type: "workspace", id },
      },
      by,
      exists(db.select({ one: sql`1` }).from(workspaces).where(live)),
    ),
    db.update(workspaces).set({ deletedAt: at, updatedAt: at }).where(live).returning(),
  ]);
  return deleting(rows);
}

/** A workspace being deleted, or null (absent, live, or erased already). */
export async function findDeletingWorkspace(
  db: Database,
  id: string,
): Promise<DeletingWorkspace | null> {
  const rows = await db
    .select()
    .from(workspaces)
    .where(and(eq(workspaces.id, id), isNotNull(workspaces.deletedAt)))
    .limit(1);
  return deleting(rows);
}

/** Deleting workspaces whose erasure made no progress since `staleBefore`, oldest first. */
export async function staleDeletingWorkspaces(
  db: Database,
  window: { staleBefore: string; limit: number },
): Promise<WorkspaceRow[]> {
  return db
    .select()
    .from(workspaces)
    .where(and(isNotNull(workspaces.deletedAt), lt(workspaces.updatedAt, window.staleBefore)))
    .orderBy(asc(workspaces.updatedAt))
    .limit(window.limit);
}

/** Records erasure progress, so the sweep leaves an erasure that is moving alone. */
export async function touchDeletingWorkspace(db: Database, id: string, at: string): Promise<void> {
  await db
    .update(workspaces)
    .set({ updatedAt: at })
    .where(and(eq(workspaces.id, id), isNotNull(workspaces.deletedAt)));
}

/**
 * Deletes the row of a deleting workspace, the last thing erasure does. Foreign keys refuse it
 * while any row that names the workspace through one remains.
 */
export async function deleteWorkspaceRow(db: Database, id: string): Promise<void> {
  await db.delete(workspaces).where(and(eq(workspaces.id, id), isNotNull(workspaces.deletedAt)));
}

/** Videos of the workspace not yet marked deleted (any status). */
export async function liveVideosPage(db: Database, workspaceId: string, limit: number) {
  return db
    .select({ id: videos.id, status: videos.status })
    .from(videos)
    .where(and(eq(videos.workspaceId, workspaceId), ne(videos.status, "deleted")))
    .limit(limit);
}

/**
 * Deleted videos of the workspace whose erasure has not completed: `ready` ones no work renewed
 * since `since` (erasure may start), and whether any others wait for work in flight.
 */
export async function unerasedVideos(
  db: Database,
  workspaceId: string,
  since: string,
  limit: number,
): Promise<{ ready: string[]; waiting: boolean }> {
  const unerased = and(
    eq(videos.workspaceId, workspaceId),
    eq(videos.status, "deleted"),
    isNull(videos.erasedAt),
  );
  const working = db
    .select({ id: workLeases.subjectId })
    .from(workLeases)
    .where(and(eq(workLeases.subjectId, videos.id), gt(workLeases.activeFrom, since)));
  const ready = await db
    .select({ id: videos.id })
    .from(videos)
    .where(and(unerased, notExists(working)))
    .limit(limit);
  if (ready.length > 0) return { ready: ready.map((row) => row.id), waiting: false };
  const any = await db.select({ id: videos.id }).from(videos).where(unerased).limit(1);
  return { ready: [], waiting: any.length > 0 };
}

/** Runs of the workspace still queued or processing whose cancellation was not asked yet. */
export async function runsToCancel(db: Database, workspaceId: string, limit: number) {
  const rows = await db
    .select({ id: runs.id })
    .from(runs)
    .where(
      and(
        eq(runs.workspaceId, workspaceId),
        inArray(runs.status, ACTIVE_RUN),
        eq(runs.cancelRequested, false),
      ),
    )
    .limit(limit);
  return rows.map((row) => row.id);
}

/** Runs of the workspace still queued or processing, with when their work was last active. */
export async function activeRunsPage(db: Database, workspaceId: string, limit: number) {
  return db
    .select({
      id: runs.id,
      updatedAt: runs.updatedAt,
      activeFrom: workLeases.activeFrom,
    })
    .from(runs)
    .leftJoin(workLeases, eq(workLeases.subjectId, runs.id))
    .where(and(eq(runs.workspaceId, workspaceId), inArray(runs.status, ACTIVE_RUN)))
    .limit(limit);
}

/** Ids of the workspace's ended runs, a page at a time. */
export async function endedRunsPage(db: Database, workspaceId: string, limit: number) {
  const rows = await db
    .select({ id: runs.id })
    .from(runs)
    .where(
      and(
        eq(runs.workspaceId, workspaceId),
        ne(runs.status, "queued"),
        ne(runs.status, "processing"),
      ),
    )
    .orderBy(asc(runs.id))
    .limit(limit);
  return rows.map((row) => row.id);
}

/**
 * Statements erasing ended runs: a page of each table that hangs off a run, then the runs
 * (and their leases) that have nothing left. The caller leaves out runs whose report objects
 * are not all deleted yet, so no object loses the row it is found through.
 */
export function eraseRunsStatements(
  db: Database,
  runIds: readonly string[],
  emptyRunIds: readonly string[],
): BatchItem<"sqlite">[] {
  const ids = [...runIds];
  const statements: BatchItem<"sqlite">[] = [
    deletePage(db, runSteps, inArray(runSteps.runId, ids)),
    deletePage(db, runSnapshots, inArray(runSnapshots.runId, ids)),
    deletePage(db, answers, inArray(answers.runId, ids)),
    deletePage(db, reports, inArray(reports.runId, ids)),
    deletePage(db, findings, inArray(findings.runId, ids)),
  ];
  if (emptyRunIds.length === 0) return statements;
  const empty = [...emptyRunIds];
  const childless = [runSteps, runSnapshots, answers, reports, findings].map((child) =>
    notExists(db.select({ one: sql`1` }).from(child).where(eq(child.runId, runs.id))),
  );
  statements.push(
    db.delete(workLeases).where(inArray(workLeases.subjectId, empty)),
    db
      .delete(runs)
      .where(
        and(
          inArray(runs.id, empty),
          ne(runs.status, "queued"),
          ne(runs.status, "processing"),
          ...childless,
        ),
      ),
  );
  return statements;
}
