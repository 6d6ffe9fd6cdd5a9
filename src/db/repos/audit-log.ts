import { and, desc, eq, getTableColumns, is, lt, SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { AuditAction, AuditedBy, AuditTarget } from "../../domain/audit";
import { nowIso } from "../../lib/clock";
import { newId } from "../../lib/ids";
import type { PageQuery } from "../../lib/pagination";
import type { Database } from "../client";
import { auditLog, workspaces } from "../schema";
import { deletePage } from "./workspace-erasure-tables";

/** An audit log row. */
export type AuditRow = typeof auditLog.$inferSelect;

/** A JSON value as an entry records it. */
export type Json =
  | string
  | number
  | boolean
  | null
  | readonly Json[]
  | { readonly [key: string]: Json };

/**
 * A recorded value: JSON known when the statement is built, or SQL evaluated when it runs (a
 * value before the change, read in the same batch that changes it).
 */
export type AuditValue = Json | SQL;

/** One setting's change; `before` absent on creation, `after` on deletion. */
export interface AuditChange {
  before?: AuditValue;
  after?: AuditValue;
}

/** What an entry says, besides who made the change and when. */
export interface NewAuditEntry {
  workspaceId: string;
  action: AuditAction;
  target: { type: AuditTarget; id: string };
  changes?: Record<string, AuditChange> | undefined;
}

function jsonValue(value: AuditValue): SQL {
  // json() gives the text the JSON subtype, so json_object nests it rather than quoting it.
  return is(value, SQL) ? value : sql`json(${JSON.stringify(value)})`;
}

function changesValue(changes: Record<string, AuditChange>): SQL {
  const fields = Object.entries(changes).map(([name, change]) => {
    const parts: SQL[] = [];
    if (change.before !== undefined) parts.push(sql`'before', ${jsonValue(change.before)}`);
    if (change.after !== undefined) parts.push(sql`'after', ${jsonValue(change.after)}`);
    return sql`${name}, json_object(${sql.join(parts, sql`, `)})`;
  });
  return sql`json_object(${sql.join(fields, sql`, `)})`;
}

/**
 * The statement that records an entry; batch it with the change it records, before it when
 * `changes` reads a value the change overwrites. With a `guard`, the entry is written only if
 * the guard holds when the statement runs: give it the change's own condition, so the batch
 * writes both or neither.
 */
export function auditStatement(
  db: Database,
  entry: NewAuditEntry,
  by: AuditedBy,
  guard: SQLWrapper = sql`1`,
): BatchItem<"sqlite"> {
  const values: Record<keyof AuditRow, SQL> = {
    id: sql`${newId("aud")}`,
    workspaceId: sql`${entry.workspaceId}`,
    actor: sql`${by.actor}`,
    action: sql`${entry.action}`,
    targetType: sql`${entry.target.type}`,
    targetId: sql`${entry.target.id}`,
    changes: entry.changes ? changesValue(entry.changes) : sql`null`,
    requestId: sql`${by.requestId}`,
    createdAt: sql`${nowIso()}`,
  };
  // In the table's column order, which is the order drizzle names the columns in.
  const columns = Object.keys(getTableColumns(auditLog)) as (keyof AuditRow)[];
  const cells = sql.join(
    columns.map((column) => values[column]),
    sql`, `,
  );
  return db.insert(auditLog).select(sql`select ${cells} where ${guard}`);
}

/** A workspace's entries, newest first, `limit + 1` rows from after the cursor key. */
export async function listAuditEntries(
  db: Database,
  workspaceId: string,
  filter: { action?: AuditAction | undefined },
  page: PageQuery,
): Promise<AuditRow[]> {
  const afterId = page.after?.[0];
  return db
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.workspaceId, workspaceId),
        filter.action === undefined ? undefined : eq(auditLog.action, filter.action),
        typeof afterId === "string" ? lt(auditLog.id, afterId) : undefined,
      ),
    )
    .orderBy(desc(auditLog.id))
    .limit(page.limit + 1);
}

/** Deletes at most `limit` entries written before `before`; answers how many went. */
export async function deleteAuditEntriesBefore(
  db: Database,
  before: string,
  limit: number,
): Promise<number> {
  const result = await deletePage(db, auditLog, lt(auditLog.createdAt, before), limit);
  return result.meta.changes;
}

/**
 * Whether the workspace's row exists, being deleted or not: its audit trail is read until
 * erasure removes it.
 */
export async function workspaceRowExists(db: Database, id: string): Promise<boolean> {
  const rows = await db
    .select({ id: workspaces.id })
    .from(workspaces)
    .where(eq(workspaces.id, id))
    .limit(1);
  return rows.length > 0;
}
