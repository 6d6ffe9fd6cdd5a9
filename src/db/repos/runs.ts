import { and, asc, count, desc, eq, gt, inArray, lt, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { ResultState } from "../../domain/answers";
import type { PageQuery } from "../../lib/pagination";
import type { Database } from "../client";
import { insertJsonRowsStatements } from "../insert-json";
import { answers, reports, runSnapshots, runs } from "../schema/runs";

/** A run row. */
export type RunRow = typeof runs.$inferSelect;
/** A run status. */
export type RunStatus = RunRow["status"];
/** An answer row. */
export type AnswerRow = typeof answers.$inferSelect;
/** A snapshot row. */
export type SnapshotRow = typeof runSnapshots.$inferSelect;
/** A report row. */
export type ReportRow = typeof reports.$inferSelect;

/** Statements that create a run with its snapshots (batch them). */
export function insertRunStatements(
  db: Database,
  run: RunRow,
  snapshots: SnapshotRow[],
): BatchItem<"sqlite">[] {
  return [
    db.insert(runs).values(run),
    ...snapshots.map((snapshot) => db.insert(runSnapshots).values(snapshot)),
  ];
}

/** The statement that changes a run. */
export function updateRunStatement(
  db: Database,
  id: string,
  change: Partial<RunRow> & { updatedAt: string },
) {
  return db.update(runs).set(change).where(eq(runs.id, id));
}

/** The statement that records a snapshot. */
export function insertSnapshotStatement(db: Database, snapshot: SnapshotRow) {
  return db.insert(runSnapshots).values(snapshot).onConflictDoNothing();
}

/**
 * Statements that store answers, carried as JSON rows (one statement up to 1 MB of them).
 * (run, key) is unique, so a step stored twice (a duplicate delivery) keeps the first answers
 * and adds nothing. Readers show a run's answers only once it has completed.
 */
export function insertAnswersStatements(db: Database, rows: AnswerRow[]): BatchItem<"sqlite">[] {
  return insertJsonRowsStatements(db, answers, rows);
}

/** How many answers of a run are in each result state. */
export async function answerStateCounts(
  db: Database,
  runId: string,
): Promise<Map<ResultState, number>> {
  const rows = await db
    .select({ state: answers.resultState, count: count() })
    .from(answers)
    .where(eq(answers.runId, runId))
    .groupBy(answers.resultState);
  return new Map(rows.map((row) => [row.state, row.count]));
}

/** A run's answers in profile order, `limit` of them from after `position` (to read in pages). */
export async function answersAfter(
  db: Database,
  runId: string,
  position: number,
  limit: number,
): Promise<AnswerRow[]> {
  return db
    .select()
    .from(answers)
    .where(and(eq(answers.runId, runId), gt(answers.position, position)))
    .orderBy(asc(answers.position))
    .limit(limit);
}

/** One run of a workspace, or null. */
export async function findRun(
  db: Database,
  workspaceId: string,
  id: string,
): Promise<RunRow | null> {
  const rows = await db
    .select()
    .from(runs)
    .where(and(eq(runs.workspaceId, workspaceId), eq(runs.id, id)))
    .limit(1);
  return rows[0] ?? null;
}

/** One run by id, whatever its workspace (for the queue consumer and the run's object). */
export async function findRunById(db: Database, id: string): Promise<RunRow | null> {
  const rows = await db.select().from(runs).where(eq(runs.id, id)).limit(1);
  return rows[0] ?? null;
}

/** A workspace's runs, newest first, filtered by status and by a video in their sources. */
export async function listRuns(
  db: Database,
  workspaceId: string,
  filter: { status?: RunStatus | undefined; videoId?: string | undefined },
  page: PageQuery,
): Promise<RunRow[]> {
  const conditions: SQL[] = [eq(runs.workspaceId, workspaceId)];
  if (filter.status !== undefined) conditions.push(eq(runs.status, filter.status));
  if (filter.videoId !== undefined) {
    conditions.push(
      sql`EXISTS (SELECT 1 FROM json_each(${runs.sourceIds}) WHERE json_each.value = ${filter.videoId})`,
    );
  }
  const after = page.after?.[0];
  if (typeof after === "string") conditions.push(lt(runs.id, after));
  return db
    .select()
    .from(runs)
    .where(and(...conditions))
    .orderBy(desc(runs.id))
    .limit(page.limit + 1);
}

/** A run's snapshots. */
export async function findSnapshots(db: Database, runId: string): Promise<SnapshotRow[]> {
  return db.select().from(runSnapshots).where(eq(runSnapshots.runId, runId));
}

/** A run's answers in profile order, `limit + 1` from after the cursor position. */
export async function listAnswers(
  db: Database,
  runId: string,
  page: PageQuery,
): Promise<AnswerRow[]> {
  const after = page.after?.[0];
  const where =
    typeof after === "number"
      ? and(eq(answers.runId, runId), gt(answers.position, after))
      : eq(answers.runId, runId);
  return db
    .select()
    .from(answers)
    .where(where)
    .orderBy(asc(answers.position))
    .limit(page.limit + 1);
}

/** All of a run's answers in profile order. */
export async function allAnswers(db: Database, runId: string): Promise<AnswerRow[]> {
  return db.select().from(answers).where(eq(answers.runId, runId)).orderBy(asc(answers.position));
}

/** The statement that stores a report row. */
export function insertReportStatement(db: Database, row: ReportRow) {
  return db.insert(reports).values(row);
}

/** A run's reports, newest first. */
export async function listReports(
  db: Database,
  workspaceId: string,
  runId: string,
  page: PageQuery,
): Promise<ReportRow[]> {
  const conditions: SQL[] = [eq(reports.workspaceId, workspaceId), eq(reports.runId, runId)];
  const after = page.after?.[0];
  if (typeof after === "string") conditions.push(lt(reports.id, after));
  return db
    .select()
    .from(reports)
    .where(and(...conditions))
    .orderBy(desc(reports.id))
    .limit(page.limit + 1);
}

/** One report of a workspace, or null. */
export async function findReport(
  db: Database,
  workspaceId: string,
  id: string,
): Promise<ReportRow | null> {
  const rows = await db
    .select()
    .from(reports)
    .where(and(eq(reports.workspaceId, workspaceId), eq(reports.id, id)))
    .limit(1);
  return rows[0] ?? null;
}

/** What a run lists of its answers: id, key, type and state, in profile order (no payloads). */
export async function answerReferences(
  db: Database,
  runId: string,
): Promise<Pick<AnswerRow, "id" | "key" | "type" | "resultState">[]> {
  return db
    .select({
      id: answers.id,
      key: answers.key,
      type: answers.type,
      resultState: answers.resultState,
    })
    .from(answers)
    .where(eq(answers.runId, runId))
    .orderBy(asc(answers.position));
}

/** The rulebooks among `rulebookIds` that a queued or processing workflow run checks. */
export async function activeWorkflowRulebooks(
  db: Database,
  rulebookIds: readonly string[],
): Promise<string[]> {
  const rows = await db
    .selectDistinct({ id: runs.rulebookId })
    .from(runs)
    .where(
      and(
        eq(runs.kind, "workflow"),
        inArray(runs.status, ["queued", "processing"]),
        // One JSON parameter, whatever the count: a statement takes at most 100 parameters.
        sql`${runs.rulebookId} IN (SELECT value FROM json_each(${JSON.stringify(rulebookIds)}))`,
      ),
    );
  return rows.flatMap((row) => (row.id === null ? [] : [row.id]));
}
