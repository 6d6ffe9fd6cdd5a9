import { type AuditedBy, OPERATOR_ACTOR } from "../domain/audit";
import type { Variables } from "../middleware/hono-env";

/** Who an alpha request's changes are recorded as: its API key (never the secret), in its request. */
export function byKey(c: { var: Pick<Variables, "auth" | "requestId"> }): AuditedBy {
  return { actor: c.var.auth.keyId, requestId: c.var.requestId };
}

/** Who an admin request's changes are recorded as: the operator token names no one else. */
export function byOperator(c: { var: Pick<Variables, "requestId"> }): AuditedBy {
  return { actor: OPERATOR_ACTOR, requestId: c.var.requestId };
}
