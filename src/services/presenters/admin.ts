import type { ApiKeyRow, WorkspaceRow } from "../../db/repos/workspaces";
import { effectiveRateLimits, type RateClass } from "../../domain/rate-limits";
import { ownerOfKey } from "../../domain/rulebooks";

/** A workspace as the admin API shows it. */
export interface WorkspaceDto {
  id: string;
  name: string;
  alpha_opt_in: boolean;
  index_private_tags: boolean;
  retention_days: number | null;
  /** Requests per window in each operation class: the operator's own, else the default. */
  rate_limits: Record<RateClass, number>;
  created_at: string;
}

/** An API key as the admin API shows it; `key`, the secret, only on create. */
export interface ApiKeyDto {
  id: string;
  key?: string;
  workspace_id: string;
  type: "alpha" | "standard";
  permissions: string[];
  owner_id: string;
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

/** Wire form of a workspace row. */
export function presentWorkspace(row: WorkspaceRow): WorkspaceDto {
  return {
    id: row.id,
    name: row.name,
    alpha_opt_in: row.alphaOptIn,
    index_private_tags: row.indexPrivateTags,
    retention_days: row.retentionDays,
    rate_limits: effectiveRateLimits(row.rateLimits),
    created_at: row.createdAt,
  };
}

/** Wire form of a key row (the secret is never stored, so never shown from here). */
export function presentKey(row: ApiKeyRow): ApiKeyDto {
  return {
    id: row.id,
    workspace_id: row.workspaceId,
    type: row.type,
    permissions: row.permissions,
    owner_id: row.ownerId ?? ownerOfKey(row.id),
    expires_at: row.expiresAt,
    revoked_at: row.revokedAt,
    created_at: row.createdAt,
  };
}

/** A workspace being deleted, as DELETE /admin/v1/workspaces/{id} answers it. */
export interface WorkspaceDeletionDto {
  id: string;
  name: string;
  status: "deleting";
  deleted_at: string;
}

/** Wire form of a deleting workspace's row. */
export function presentWorkspaceDeletion(
  row: Pick<WorkspaceRow, "id" | "name"> & { deletedAt: string },
): WorkspaceDeletionDto {
  return { id: row.id, name: row.name, status: "deleting", deleted_at: row.deletedAt };
}
