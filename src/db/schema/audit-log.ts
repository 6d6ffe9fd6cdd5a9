import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { AuditAction, AuditTarget } from "../../domain/audit";
import { workspaces } from "./workspaces";

/** A recorded change: one before or after value, or both. */
export interface AuditChangeValue {
  before?: unknown;
  after?: unknown;
}

/**
 * The audit trail: one row per security- or compliance-relevant change, written in the same
 * D1 batch as the change, kept AUDIT_RETENTION_DAYS (docs/decisions/audit-trail.md).
 */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    /** An API key id, `admin` or a `system:` actor; never a secret. */
    actor: text("actor").notNull(),
    action: text("action").$type<AuditAction>().notNull(),
    targetType: text("target_type").$type<AuditTarget>().notNull(),
    targetId: text("target_id").notNull(),
    /** Before and after of each setting the action changed; never a secret. */
    changes: text("changes", { mode: "json" }).$type<Record<string, AuditChangeValue>>(),
    /** The request that made the change; null for the sweep's work. */
    requestId: text("request_id"),
    createdAt: text("created_at").notNull(),
  },
  (table) => [
    index("audit_log_workspace_idx").on(table.workspaceId, table.id),
    index("audit_log_action_idx").on(table.workspaceId, table.action, table.id),
    // The sweep deletes entries past retention oldest first, a page at a time.
    index("audit_log_created_idx").on(table.createdAt),
  ],
);
