import { and, count, desc, eq, lt, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { ResultState } from "../../domain/answers";
import type { PageQuery } from "../../lib/pagination";
import type { Database } from "../client";
import { insertJsonRowsStatements } from "../insert-json";
import { findings } from "../schema/findings";

/** A finding row. */
export type FindingRow = typeof findings.$inferSelect;

/**
 * Statements that store findings, carried as JSON rows (one statement up to 1 MB of them).
 * (run, rule, video) is unique, so a step stored twice (a duplicate delivery) keeps the first
 * set and adds nothing.
 */
export function insertFindingsStatements(db: Database, rows: FindingRow[]): BatchItem<"sqlite">[] {
  return insertJsonRowsStatements(db, findings, rows);
}

/**
 * Findings are written step by step while their run executes and shown only once it has
 * completed: a run still running, canceled or failed shows none.
 */
const OF_COMPLETED_RUN = sql`EXISTS (SELECT 1 FROM runs r WHERE r.id = ${findings.runId} AND r.status = 'completed')`;

/** How many findings of a run are in each result state. */
export async function findingStateCounts(
  db: Database,
  runId: string,
): Promise<Map<ResultState, number>> {
  const rows = await db
    .select({ state: findings.resultState, count: count() })
    .from(findings)
    .where(eq(findings.runId, runId))
    .groupBy(findings.resultState);
  return new Map(rows.map((row) => [row.state, row.count]));
}

/** Filters of GET /findings. */
export interface FindingFilter {
  runId?: string | undefined;
  videoId?: string | undefined;
  resultState?: ResultState | undefined;
}

/** A workspace's findings, newest first, `limit + 1` rows from after the cursor key. */
export async function listFindings(
  db: Database,
  workspaceId: string,
  filter: FindingFilter,
  page: PageQuery,
): Promise<FindingRow[]> {
  const conditions: SQL[] = [eq(findings.workspaceId, workspaceId), OF_COMPLETED_RUN];
  if (filter.runId !== undefined) conditions.push(eq(findings.runId, filter.runId));
  if (filter.videoId !== undefined) conditions.push(eq(findings.videoId, filter.videoId));
  if (filter.resultState !== undefined)
    conditions.push(eq(findings.resultState, filter.resultState));
  const after = page.after?.[0];
  if (typeof after === "string") conditions.push(lt(findings.id, after));
  return db
    .select()
    .from(findings)
    .where(and(...conditions))
    .orderBy(desc(findings.id))
    .limit(page.limit + 1);
}

/** All findings of a run, in the order they were made. */
export async function findingsOfRun(db: Database, runId: string): Promise<FindingRow[]> {
  return db.select().from(findings).where(eq(findings.runId, runId)).orderBy(findings.id);
}

/** One finding of a workspace, or null. */
export async function findFinding(
  db: Database,
  workspaceId: string,
  id: string,
): Promise<FindingRow | null> {
  const rows = await db
    .select()
    .from(findings)
    .where(and(eq(findings.workspaceId, workspaceId), eq(findings.id, id), OF_COMPLETED_RUN))
    .limit(1);
  return rows[0] ?? null;
}

/** Records a review; the result state is never touched. */
export async function reviewFinding(
  db: Database,
  id: string,
  review: Pick<FindingRow, "status" | "reviewNote" | "reviewedAt" | "reviewedBy" | "updatedAt">,
): Promise<void> {
  await db.update(findings).set(review).where(eq(findings.id, id));
}
