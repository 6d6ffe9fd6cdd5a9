import { and, eq, exists, isNull, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { AuditAction, AuditedBy } from "../../domain/audit";
import type { RateClass } from "../../domain/rate-limits";
import type { Database } from "../client";
import { type apiKeys, workspaces } from "../schema";
import { type AuditChange, auditStatement } from "./audit-log";

/** A change to a workspace's rate limit overrides, per class: a quota, or null for the default. */
export type RateLimitPatch = { [name in RateClass]?: number | null };

/** A change to a workspace's settings; a field left undefined keeps what it has. */
export interface WorkspaceChange {
  alphaOptIn?: boolean | undefined;
  indexPrivateTags?: boolean | undefined;
  retentionDays?: number | null | undefined;
  name?: string | undefined;
  /** A JSON merge patch of the overrides (a class set to null takes its default); null clears them. */
  rateLimits?: RateLimitPatch | null | undefined;
}

/** The overrides a rate limit patch leaves, as SQL over the workspace row. */
export function patchedRateLimits(patch: RateLimitPatch | null): SQL {
  return patch === null
    ? sql`null`
    : sql`json_patch(coalesce(${workspaces.rateLimits}, '{}'), ${JSON.stringify(patch)})`;
}

/** A column of the workspace as it stands when the statement runs, as JSON. */
function current(id: string, value: SQL): SQL {
  // A value leaves a subquery as plain text; json() outside it makes it JSON again.
  return sql`json((select ${value} from ${workspaces} where ${workspaces.id} = ${id}))`;
}

function flag(column: typeof workspaces.alphaOptIn | typeof workspaces.indexPrivateTags): SQL {
  return sql`case when ${column} then 'true' else 'false' end`;
}

/**
 * One entry per setting the change moves, each with its value before (read in the batch) and
 * after; a setting set to what it already holds records nothing. Batch them before the update.
 */
export function workspaceChangeAudits(
  db: Database,
  id: string,
  change: WorkspaceChange,
  by: AuditedBy,
): BatchItem<"sqlite">[] {
  const settings: [AuditAction, string, AuditChange, SQL][] = [];
  if (change.name !== undefined) {
    settings.push([
      "workspace.renamed",
      "name",
      { before: current(id, sql`json_quote(${workspaces.name})`), after: change.name },
      sql`${workspaces.name} is not ${change.name}`,
    ]);
  }
  if (change.alphaOptIn !== undefined) {
    settings.push([
      "workspace.alpha_access_changed",
      "alpha_opt_in",
      { before: current(id, flag(workspaces.alphaOptIn)), after: change.alphaOptIn },
      sql`${workspaces.alphaOptIn} is not ${change.alphaOptIn ? 1 : 0}`,
    ]);
  }
  if (change.indexPrivateTags !== undefined) {
    settings.push([
      "workspace.private_tags_changed",
      "index_private_tags",
      { before: current(id, flag(workspaces.indexPrivateTags)), after: change.indexPrivateTags },
      sql`${workspaces.indexPrivateTags} is not ${change.indexPrivateTags ? 1 : 0}`,
    ]);
  }
  if (change.retentionDays !== undefined) {
    settings.push([
      "workspace.retention_changed",
      "retention_days",
      {
        before: current(id, sql`coalesce(${workspaces.retentionDays}, 'null')`),
        after: change.retentionDays,
      },
      sql`${workspaces.retentionDays} is not ${change.retentionDays}`,
    ]);
  }
  if (change.rateLimits !== undefined) {
    const after = patchedRateLimits(change.rateLimits);
    settings.push([
      "workspace.rate_limits_changed",
      "rate_limits",
      {
        before: current(id, sql`coalesce(${workspaces.rateLimits}, 'null')`),
        after: current(id, sql`coalesce(${after}, 'null')`),
      },
      sql`coalesce(${workspaces.rateLimits}, '{}') is not coalesce(${after}, '{}')`,
    ]);
  }
  return settings.map(([action, field, values, differs]) => {
    const moved = db
      .select({ one: sql`1` })
      .from(workspaces)
      .where(and(eq(workspaces.id, id), isNull(workspaces.deletedAt), differs));
    return auditStatement(
      db,
      {
        workspaceId: id,
        action,
        target: { type: "workspace", id },
        changes: { [field]: values },
      },
      by,
      exists(moved),
    );
  });
}

/** The entry of a new workspace, with the settings it starts with; batch it after the insert. */
export function workspaceCreatedAudit(
  db: Database,
  row: typeof workspaces.$inferSelect,
  by: AuditedBy,
): BatchItem<"sqlite"> {
  return auditStatement(
    db,
    {
      workspaceId: row.id,
      action: "workspace.created",
      target: { type: "workspace", id: row.id },
      changes: {
        name: { after: row.name },
        alpha_opt_in: { after: row.alphaOptIn },
        index_private_tags: { after: row.indexPrivateTags },
        retention_days: { after: row.retentionDays },
      },
    },
    by,
  );
}

/** The entry of a new API key: its type, permissions, owner and expiry, never its secret. */
export function keyCreatedAudit(
  db: Database,
  row: typeof apiKeys.$inferSelect,
  by: AuditedBy,
): BatchItem<"sqlite"> {
  return auditStatement(
    db,
    {
      workspaceId: row.workspaceId,
      action: "api_key.created",
      target: { type: "api_key", id: row.id },
      changes: {
        type: { after: row.type },
        permissions: { after: row.permissions },
        owner_id: { after: row.ownerId },
        expires_at: { after: row.expiresAt },
      },
    },
    by,
  );
}
