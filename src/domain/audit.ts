/**
 * What the audit trail records (docs/decisions/audit-trail.md): changes to who may act
 * in a workspace, where its data goes, and what of it is kept or deleted.
 */
export const AUDIT_ACTIONS = [
  "workspace.created",
  "workspace.renamed",
  "workspace.alpha_access_changed",
  "workspace.private_tags_changed",
  "workspace.retention_changed",
  "workspace.rate_limits_changed",
  "workspace.deletion_requested",
  "api_key.created",
  "api_key.revoked",
  "webhook_endpoint.created",
  "webhook_endpoint.updated",
  "webhook_endpoint.secret_rotated",
  "webhook_endpoint.deleted",
  "video.deleted",
  "rulebook.deleted",
] as const;

/** One recorded action. */
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The kinds of thing an action is done to. */
export const AUDIT_TARGETS = [
  "workspace",
  "api_key",
  "webhook_endpoint",
  "video",
  "rulebook",
] as const;

/** The kind of thing an action is done to. */
export type AuditTarget = (typeof AUDIT_TARGETS)[number];

/** Days an entry is kept: longer than a year, so a yearly review finds the whole year. */
export const AUDIT_RETENTION_DAYS = 400;

/** The actor of every admin API call: the operator token names no one beyond that. */
export const OPERATOR_ACTOR = "admin";

/** The actor of deletions the retention sweep makes. */
export const RETENTION_ACTOR = "system:retention";

/**
 * Who made a change and in which request: an API key id, `admin` or a `system:` actor, and
 * the request's id (null for work no request caused).
 */
export interface AuditedBy {
  actor: string;
  requestId: string | null;
}
