import { and, desc, eq, inArray, lt, lte, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { AuditedBy } from "../../domain/audit";
import type { PageQuery } from "../../lib/pagination";
import { type Database, runBatch } from "../client";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "../schema";
import {
  type AuditedEndpoint,
  endpointCreatedAudit,
  endpointDeletedAudit,
  endpointRotatedAudit,
  endpointUpdatedAudit,
} from "./webhook-endpoint-audit";
import { workspaceIsLive } from "./workspaces";

/** A webhook endpoint row. */
export type EndpointRow = typeof webhookEndpoints.$inferSelect;
/** A new webhook endpoint row. */
export type NewEndpointRow = typeof webhookEndpoints.$inferInsert;

/** Inserts an endpoint with its audit entry. */
export async function insertEndpoint(db: Database, row: EndpointRow, by: AuditedBy): Promise<void> {
  await db.batch([db.insert(webhookEndpoints).values(row), endpointCreatedAudit(db, row, by)]);
}

/** One endpoint of a workspace, or null when absent or in another workspace. */
export async function findEndpoint(
  db: Database,
  workspaceId: string,
  id: string,
): Promise<EndpointRow | null> {
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.workspaceId, workspaceId), eq(webhookEndpoints.id, id)))
    .limit(1);
  return rows[0] ?? null;
}

/**
 * One endpoint by id alone (queue consumers, which hold the workspace from the delivery); null
 * once its workspace is being deleted, so nothing more is sent to it.
 */
export async function endpointById(db: Database, id: string): Promise<EndpointRow | null> {
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), workspaceIsLive(webhookEndpoints.workspaceId)))
    .limit(1);
  return rows[0] ?? null;
}

/** The endpoints of a workspace, newest first, `limit + 1` rows from after the cursor key. */
export async function listEndpoints(
  db: Database,
  workspaceId: string,
  page: PageQuery,
): Promise<EndpointRow[]> {
  const conditions: SQL[] = [eq(webhookEndpoints.workspaceId, workspaceId)];
  const after = page.after?.[0];
  if (typeof after === "string") conditions.push(lt(webhookEndpoints.id, after));
  return db
    .select()
    .from(webhookEndpoints)
    .where(and(...conditions))
    .orderBy(desc(webhookEndpoints.id))
    .limit(page.limit + 1);
}

/** The enabled endpoints of a live workspace that existed when an event happened. */
export async function endpointsForEvent(
  db: Database,
  workspaceId: string,
  eventCreatedAt: string,
): Promise<EndpointRow[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.workspaceId, workspaceId),
        eq(webhookEndpoints.enabled, true),
        lte(webhookEndpoints.createdAt, eventCreatedAt),
        workspaceIsLive(workspaceId),
      ),
    );
}

/**
 * Changes an endpoint's fields, with the audit entry of what it changes of where, what and
 * whether it sends (none when nothing of that moves).
 */
export async function updateEndpoint(
  db: Database,
  endpoint: AuditedEndpoint,
  change: Partial<Omit<NewEndpointRow, "id" | "workspaceId" | "createdAt">>,
  by: AuditedBy,
): Promise<void> {
  const audit = endpointUpdatedAudit(db, endpoint, change, by);
  await runBatch(db, [...(audit ? [audit] : []), updateEndpointStatement(db, endpoint.id, change)]);
}

/** Replaces an endpoint's secrets, with the audit entry of the rotation (no secret in it). */
export async function rotateEndpointSecrets(
  db: Database,
  endpoint: AuditedEndpoint,
  change: Pick<EndpointRow, "secret" | "previousSecret" | "updatedAt"> & {
    previousSecretExpiresAt: string;
  },
  by: AuditedBy,
): Promise<void> {
  await db.batch([
    endpointRotatedAudit(db, endpoint, change.previousSecretExpiresAt, by),
    updateEndpointStatement(db, endpoint.id, change),
  ]);
}

/** Deletes an endpoint with its deliveries and their attempt log, and its audit entry, in one batch. */
export async function deleteEndpoint(
  db: Database,
  endpoint: AuditedEndpoint,
  by: AuditedBy,
): Promise<void> {
  const { id } = endpoint;
  const deliveries = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, id));
  await db.batch([
    endpointDeletedAudit(db, endpoint, by),
    db.delete(webhookAttempts).where(inArray(webhookAttempts.deliveryId, deliveries)),
    db.delete(webhookDeliveries).where(eq(webhookDeliveries.endpointId, id)),
    db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id)),
  ]);
}

/** The statement of updateEndpoint, for batching with a delivery's attempt. */
export function updateEndpointStatement(
  db: Database,
  id: string,
  change: Partial<Omit<NewEndpointRow, "id" | "workspaceId" | "createdAt">>,
): BatchItem<"sqlite"> {
  return db.update(webhookEndpoints).set(change).where(eq(webhookEndpoints.id, id));
}
