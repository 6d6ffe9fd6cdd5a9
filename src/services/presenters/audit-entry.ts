import type { AuditRow } from "../../db/repos/audit-log";
import type { AuditAction, AuditTarget } from "../../domain/audit";

/** An audit entry as the admin API shows it. */
export interface AuditEntryDto {
  id: string;
  workspace_id: string;
  actor: string;
  action: AuditAction;
  target_type: AuditTarget;
  target_id: string;
  changes: Record<string, { before?: unknown; after?: unknown }> | null;
  request_id: string | null;
  created_at: string;
}

/** Wire form of an audit log row. */
export function presentAuditEntry(row: AuditRow): AuditEntryDto {
  return {
    id: row.id,
    workspace_id: row.workspaceId,
    actor: row.actor,
    action: row.action,
    target_type: row.targetType,
    target_id: row.targetId,
    changes: row.changes,
    request_id: row.requestId,
    created_at: row.createdAt,
  };
}
