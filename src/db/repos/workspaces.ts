import { and, desc, eq, isNull, lt, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { RateClass, RateLimitOverrides } from "../../domain/rate-limits";
import type { PageQuery } from "../../lib/pagination";
import type { Database } from "../client";
import { apiKeys, workspaces } from "../schema";

/** A change to a workspace's rate limit overrides, per class: a quota, or null for the default. */
export type RateLimitPatch = { [name in RateClass]?: number | null };

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

/** Inserts a workspace. */
export async function insertWorkspace(db: Database, row: WorkspaceRow): Promise<void> {
  await db.insert(workspaces).values(row);
}

/** Changes a workspace; returns the row or null when it does not exist. */
export async function updateWorkspace(
  db: Database,
  id: string,
  change: {
    alphaOptIn?: boolean | undefined;
    indexPrivateTags?: boolean | undefined;
    retentionDays?: number | null | undefined;
    name?: string | undefined;
    /** A JSON merge patch of the overrides (a class set to null takes its default); null clears them. */
    rateLimits?: RateLimitPatch | null | undefined;
    updatedAt: string;
  },
): Promise<WorkspaceRow | null> {
  const rows = await db
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
        : {
            rateLimits:
              change.rateLimits === null
                ? null
                : sql`json_patch(coalesce(${workspaces.rateLimits}, '{}'), ${JSON.stringify(change.rateLimits)})`,
          }),
    })
    .where(and(eq(workspaces.id, id), live))
    .returning();
  return rows[0] ?? null;
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

/** Inserts an API key. */
export async function insertApiKey(db: Database, row: ApiKeyRow): Promise<void> {
  await db.insert(apiKeys).values(row);
}

/**
 * Marks a key revoked (keeping the first revocation time); null when no key has that id, or
 * its workspace is being deleted (its keys are refused already and erased with it).
 */
export async function revokeApiKey(
  db: Database,
  id: string,
  revokedAt: string,
): Promise<ApiKeyRow | null> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, ${revokedAt})` })
    .where(and(eq(apiKeys.id, id), workspaceIsLive(apiKeys.workspaceId)))
    .returning();
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
