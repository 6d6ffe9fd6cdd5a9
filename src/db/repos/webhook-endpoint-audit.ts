import { and, eq, exists, or, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { AuditAction, AuditedBy } from "../../domain/audit";
import type { Database } from "../client";
import { webhookEndpoints } from "../schema";
import { type AuditChange, auditStatement } from "./audit-log";

/** The endpoint an entry is about. */
export interface AuditedEndpoint {
  id: string;
  workspaceId: string;
}

/** A change to an endpoint the audit trail records: where and what it sends, and whether. */
export interface EndpointAuditChange {
  url?: string | undefined;
  eventTypes?: readonly string[] | undefined;
  enabled?: boolean | undefined;
}

/**
 * The origin of a canonical webhook URL (`scheme://host[:port]`, the text before the path's
 * first `/`). Entries keep only it: a path or query may hold the receiver's own token.
 */
function origin(url: SQL): SQL {
  const hostStart = sql`(instr(${url}, '://') + 3)`;
  return sql`substr(${url}, 1, instr(substr(${url}, ${hostStart}), '/') + ${hostStart} - 2)`;
}

/** A value of the endpoint as it stands when the statement runs, as JSON. */
function current(id: string, value: SQL): SQL {
  // A value leaves a subquery as plain text; json() outside it makes it JSON again.
  return sql`json((select ${value} from ${webhookEndpoints} where ${webhookEndpoints.id} = ${id}))`;
}

/** Whether the endpoint exists (and `condition` holds) when the statement runs. */
function endpointWhere(db: Database, endpoint: AuditedEndpoint, condition?: SQL): SQL {
  const row = db
    .select({ one: sql`1` })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.id, endpoint.id),
        eq(webhookEndpoints.workspaceId, endpoint.workspaceId),
        condition,
      ),
    );
  return exists(row);
}

function entry(
  db: Database,
  endpoint: AuditedEndpoint,
  action: AuditAction,
  by: AuditedBy,
  changes: Record<string, AuditChange> | undefined,
  guard: SQL,
): BatchItem<"sqlite"> {
  return auditStatement(
    db,
    {
      workspaceId: endpoint.workspaceId,
      action,
      target: { type: "webhook_endpoint", id: endpoint.id },
      changes,
    },
    by,
    guard,
  );
}

/** The entry of a new endpoint: its URL's origin and event types; batch it after the insert. */
export function endpointCreatedAudit(
  db: Database,
  endpoint: AuditedEndpoint & { url: string; eventTypes: readonly string[] },
  by: AuditedBy,
): BatchItem<"sqlite"> {
  return entry(
    db,
    endpoint,
    "webhook_endpoint.created",
    by,
    {
      url: { after: sql`json_quote(${origin(sql`${endpoint.url}`)})` },
      event_types: { after: endpoint.eventTypes },
    },
    endpointWhere(db, endpoint),
  );
}

/**
 * The entry of a change to where or what an endpoint sends, or whether it sends, with each
 * changed field before (read in the batch) and after; none when the change sets only what the
 * endpoint holds already, or touches none of them. Batch it before the update.
 */
export function endpointUpdatedAudit(
  db: Database,
  endpoint: AuditedEndpoint,
  change: EndpointAuditChange,
  by: AuditedBy,
): BatchItem<"sqlite"> | null {
  const changes: Record<string, AuditChange> = {};
  const differs: SQL[] = [];
  const { id } = endpoint;
  if (change.url !== undefined) {
    changes.url = {
      before: current(id, sql`json_quote(${origin(sql`${webhookEndpoints.url}`)})`),
      after: sql`json_quote(${origin(sql`${change.url}`)})`,
    };
    differs.push(sql`${webhookEndpoints.url} is not ${change.url}`);
  }
  if (change.eventTypes !== undefined) {
    const after = JSON.stringify(change.eventTypes);
    changes.event_types = {
      before: current(id, sql`${webhookEndpoints.eventTypes}`),
      after: change.eventTypes,
    };
    differs.push(sql`json(${webhookEndpoints.eventTypes}) is not json(${after})`);
  }
  if (change.enabled !== undefined) {
    changes.enabled = {
      before: current(id, sql`case when ${webhookEndpoints.enabled} then 'true' else 'false' end`),
      after: change.enabled,
    };
    differs.push(sql`${webhookEndpoints.enabled} is not ${change.enabled ? 1 : 0}`);
  }
  if (differs.length === 0) return null;
  return entry(
    db,
    endpoint,
    "webhook_endpoint.updated",
    by,
    changes,
    endpointWhere(db, endpoint, or(...differs)),
  );
}

/** The entry of a secret rotation: until when the previous secret still signs, never a secret. */
export function endpointRotatedAudit(
  db: Database,
  endpoint: AuditedEndpoint,
  previousSecretExpiresAt: string,
  by: AuditedBy,
): BatchItem<"sqlite"> {
  return entry(
    db,
    endpoint,
    "webhook_endpoint.secret_rotated",
    by,
    { previous_secret_expires_at: { after: previousSecretExpiresAt } },
    endpointWhere(db, endpoint),
  );
}

/** The entry of a deleted endpoint, with its URL's origin and event types; batch it before. */
export function endpointDeletedAudit(
  db: Database,
  endpoint: AuditedEndpoint,
  by: AuditedBy,
): BatchItem<"sqlite"> {
  return entry(
    db,
    endpoint,
    "webhook_endpoint.deleted",
    by,
    {
      url: {
        before: current(endpoint.id, sql`json_quote(${origin(sql`${webhookEndpoints.url}`)})`),
      },
      event_types: { before: current(endpoint.id, sql`${webhookEndpoints.eventTypes}`) },
    },
    endpointWhere(db, endpoint),
  );
}
