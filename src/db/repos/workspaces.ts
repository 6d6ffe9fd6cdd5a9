import { and, desc, eq, exists, isNull, lt, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { AuditedBy } from "../../domain/audit";
import type { RateLimitOverrides } from "../../domain/rate-limits";
import type { PageQuery } from "../../lib/pagination";
import { type Database, runBatch } from "../client";
import { apiKeys, workspaces } from "../schema";
import { auditStatement } from "./audit-log";
import {
  keyCreatedAudit,
  patchedRateLimits,
  type WorkspaceChange,
  workspaceChangeAudits,
  workspaceCreatedAudit,
} from "./workspace-audit";

/** A workspace row. */
export type WorkspaceRow = typeof workspaces.$inferSelect;
/** An API key row. */
export type ApiKeyRow = typeof apiKeys.$inferSelect;

/** The condition "this workspace row is not being deleted": every read of the admin API and auth. */
const live = isNull(workspaces.deletedAt);

/**
 * The condition "the workspace with this id exists and is not being deleted", for statements
 * that must not act for a deleting workspace (events, webhook endpoints, keys).
 */
export function workspaceIsLive(workspaceId: SQLWrapper | string): SQL {
  return sql`exists (select 1 from ${workspaces} where ${workspaces.id} = ${workspaceId} and ${workspaces.deletedAt} is null)`;
}

/** Inserts a workspace with its audit entry. */
export async function insertWorkspace(
  db: Database,
  row: WorkspaceRow,
  by: AuditedBy,
): Promise<void> {
  await db.batch([db.insert(workspaces).values(row), workspaceCreatedAudit(db, row, by)]);
}

/**
 * Changes a workspace, with an audit entry per setting it moves, in one batch; returns the row
 * or null when it does not exist or is being deleted.
 */
export async function updateWorkspace(
  db: Database,
  id: string,
  change: WorkspaceChange & { updatedAt: string },
  by: AuditedBy,
): Promise<WorkspaceRow | null> {
  const update = db
    .update(workspaces)
    .set({
      updatedAt: change.updatedAt,
      ...(change.alphaOptIn === undefined ? {} : { alphaOptIn: change.alphaOptIn }),
      ...(change.indexPrivateTags === undefined
        ? {}
        : { indexPrivateTags: change.indexPrivateTags }),
      ...(change.retentionDays === undefined ? {} : { retentionDays: change.retentionDays }),
      ...(change.name === undefined ? {} : { name: change.name }),
      ...(change.rateLimits === undefined
        ? {}
        : { rateLimits: patchedRateLimits(change.rateLimits) }),
    })
    .where(and(eq(workspaces.id, id), live));
  await runBatch(db, [...workspaceChangeAudits(db, id, change, by), update]);
  return findWorkspace(db, id);
}

/** One workspace by id; null when absent or being deleted. */
export async function findWorkspace(db: Database, id: string): Promise<WorkspaceRow | null> {
  const rows = await db
    .select()
    .from(workspaces)
    .where(and(eq(workspaces.id, id), live))
    .limit(1);
  return rows[0] ?? null;
}

/** Inserts an API key with its audit entry. */
export async function insertApiKey(db: Database, row: ApiKeyRow, by: AuditedBy): Promise<void> {
  await db.batch([db.insert(apiKeys).values(row), keyCreatedAudit(db, row, by)]);
}

/**
 * Marks a key revoked (keeping the first revocation time; only the first is recorded in the
 * audit trail); null when no key has that id, or its workspace is being deleted (its keys are
 * refused already and erased with it).
 */
export async function revokeApiKey(
  db: Database,
  id: string,
  revokedAt: string,
  by: AuditedBy,
): Promise<ApiKeyRow | null> {
  const found = await db
    .select({ workspaceId: apiKeys.workspaceId })
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), workspaceIsLive(apiKeys.workspaceId)))
    .limit(1);
  const workspaceId = found[0]?.workspaceId;
  if (workspaceId === undefined) return null;
  const unrevoked = db
    .select({ one: sql`1` })
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt), workspaceIsLive(workspaceId)));
  const [, rows] = await db.batch([
    auditStatement(
      db,
      { workspaceId, action: "api_key.revoked", target: { type: "api_key", id } },
      by,
      exists(unrevoked),
    ),
    db
      .update(apiKeys)
      .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, ${revokedAt})` })
      .where(and(eq(apiKeys.id, id), workspaceIsLive(apiKeys.workspaceId)))
      .returning(),
  ]);
  return rows[0] ?? null;
}

/** A key with its workspace's opt-in and rate limits, found by the hash of its secret; none of a deleting workspace. */
export async function findKeyByHash(
  db: Database,
  secretHash: string,
): Promise<{ key: ApiKeyRow; alphaOptIn: boolean; rateLimits: RateLimitOverrides | null } | null> {
  const rows = await db
    .select({ key: apiKeys, alphaOptIn: workspaces.alphaOptIn, rateLimits: workspaces.rateLimits })
    .from(apiKeys)
    .innerJoin(workspaces, eq(workspaces.id, apiKeys.workspaceId))
    .where(and(eq(apiKeys.secretHash, secretHash), live))
    .limit(1);
  return rows[0] ?? null;
}

/** All workspaces but deleting ones, newest first, `limit + 1` rows from after the cursor key. */
export async function listWorkspaces(db: Database, page: PageQuery): Promise<WorkspaceRow[]> {
  const afterId = page.after?.[0];
  return db
    .select()
    .from(workspaces)
    .where(and(live, typeof afterId === "string" ? lt(workspaces.id, afterId) : undefined))
    .orderBy(desc(workspaces.id))
    .limit(page.limit + 1);
}

/** The keys of a workspace (revoked and expired ones too), newest first, `limit + 1` rows. */
export async function listApiKeys(
  db: Database,
  workspaceId: string,
  page: PageQuery,
): Promise<ApiKeyRow[]> {
  const conditions: SQL[] = [eq(apiKeys.workspaceId, workspaceId)];
  const afterId = page.after?.[0];
  if (typeof afterId === "string") conditions.push(lt(apiKeys.id, afterId));
  return db
    .select()
    .from(apiKeys)
    .where(and(...conditions))
    .orderBy(desc(apiKeys.id))
    .limit(page.limit + 1);
}
