import { and, desc, eq, lt, type SQL } from "drizzle-orm";
import type { PageQuery } from "../../lib/pagination";
import type { Database } from "../client";
import { workflows } from "../schema";

/** A workflow row. */
export type WorkflowRow = typeof workflows.$inferSelect;

/** Inserts a workflow. */
export async function insertWorkflow(db: Database, row: WorkflowRow): Promise<void> {
  await db.insert(workflows).values(row);
}

/** One workflow of the workspace, or null. */
export async function findWorkflow(
  db: Database,
  workspaceId: string,
  id: string,
): Promise<WorkflowRow | null> {
  const rows = await db
    .select()
    .from(workflows)
    .where(and(eq(workflows.id, id), eq(workflows.workspaceId, workspaceId)))
    .limit(1);
  return rows[0] ?? null;
}

/** The workspace's workflows, newest first, `limit + 1` rows from after the cursor key. */
export async function listWorkflows(
  db: Database,
  workspaceId: string,
  page: PageQuery,
): Promise<WorkflowRow[]> {
  const conditions: SQL[] = [eq(workflows.workspaceId, workspaceId)];
  const afterId = page.after?.[0];
  if (typeof afterId === "string") conditions.push(lt(workflows.id, afterId));
  return db
    .select()
    .from(workflows)
    .where(and(...conditions))
    .orderBy(desc(workflows.id))
    .limit(page.limit + 1);
}

/** The statement that points a workflow at its newest run. */
export function setLatestRunStatement(
  db: Database,
  workflowId: string,
  runId: string,
  updatedAt: string,
) {
  return db
    .update(workflows)
    .set({ latestRunId: runId, updatedAt })
    .where(eq(workflows.id, workflowId));
}
