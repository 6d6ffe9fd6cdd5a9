import { and, asc, desc, eq, gte, inArray, isNull, lt, lte, or, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { PageQuery } from "../../lib/pagination";
import type { Database } from "../client";
import { events, webhookAttempts, webhookDeliveries, webhookEndpoints } from "../schema";
import type { EventRow } from "./events";

/** A delivery row. */
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
/** A new delivery row. */
export type NewDeliveryRow = typeof webhookDeliveries.$inferInsert;
/** A delivery status. */
export type DeliveryStatus = DeliveryRow["status"];
/** An attempt log row. */
export type AttemptRow = typeof webhookAttempts.$inferSelect;

/** Events no dispatcher has fanned out yet, oldest first; of the given workspaces when named. */
export async function undispatchedEvents(
  db: Database,
  limit: number,
  workspaceIds?: readonly string[],
): Promise<EventRow[]> {
  if (workspaceIds?.length === 0) return [];
  const pending = isNull(events.dispatchedAt);
  return db
    .select()
    .from(events)
    .where(workspaceIds ? and(pending, inArray(events.workspaceId, [...workspaceIds])) : pending)
    .orderBy(asc(events.id))
    .limit(limit);
}

/** One event by id. */
export async function eventById(db: Database, id: string): Promise<EventRow | null> {
  const rows = await db.select().from(events).where(eq(events.id, id)).limit(1);
  return rows[0] ?? null;
}

/** Inserts a delivery unless the (event, endpoint) pair already has one. */
export function insertDeliveryStatement(db: Database, row: NewDeliveryRow): BatchItem<"sqlite"> {
  return db.insert(webhookDeliveries).values(row).onConflictDoNothing();
}

/** Marks an event as fanned out. */
export function markDispatchedStatement(
  db: Database,
  eventId: string,
  now: string,
): BatchItem<"sqlite"> {
  return db.update(events).set({ dispatchedAt: now }).where(eq(events.id, eventId));
}

/** The deliveries of an event still waiting for their first attempt. */
export async function firstAttemptsOf(db: Database, eventId: string): Promise<DeliveryRow[]> {
  return db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.eventId, eventId),
        eq(webhookDeliveries.status, "pending"),
        eq(webhookDeliveries.attempts, 0),
      ),
    );
}

/** One delivery of an endpoint of a workspace, or null. */
export async function findDelivery(
  db: Database,
  workspaceId: string,
  endpointId: string,
  id: string,
): Promise<DeliveryRow | null> {
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.workspaceId, workspaceId),
        eq(webhookDeliveries.endpointId, endpointId),
        eq(webhookDeliveries.id, id),
      ),
    )
    .limit(1);
  return rows[0] ?? null;
}

/** One delivery by id alone (queue consumers). */
export async function deliveryById(db: Database, id: string): Promise<DeliveryRow | null> {
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.id, id))
    .limit(1);
  return rows[0] ?? null;
}

/** Filters of the delivery history. */
export interface DeliveryFilter {
  status?: DeliveryStatus | undefined;
  eventType?: string | undefined;
}

/** An endpoint's deliveries, newest first, `limit + 1` rows from after the cursor key. */
export async function listDeliveries(
  db: Database,
  endpointId: string,
  filter: DeliveryFilter,
  page: PageQuery,
): Promise<DeliveryRow[]> {
  const conditions: SQL[] = [eq(webhookDeliveries.endpointId, endpointId)];
  if (filter.status) conditions.push(eq(webhookDeliveries.status, filter.status));
  if (filter.eventType) conditions.push(eq(webhookDeliveries.eventType, filter.eventType));
  const after = page.after?.[0];
  if (typeof after === "string") conditions.push(lt(webhookDeliveries.id, after));
  return db
    .select()
    .from(webhookDeliveries)
    .where(and(...conditions))
    .orderBy(desc(webhookDeliveries.id))
    .limit(page.limit + 1);
}

/**
 * Takes a delivery for one attempt: only if it is still pending at the same attempt count
 * and due time the message was sent for, and no other attempt holds it. Returns whether
 * this caller won; a duplicate or stale message loses and does nothing.
 */
export async function claimDelivery(
  db: Database,
  claim: { id: string; attempts: number; due: string; now: string; until: string },
): Promise<boolean> {
  const result = await db
    .update(webhookDeliveries)
    .set({ claimedUntil: claim.until })
    .where(
      and(
        eq(webhookDeliveries.id, claim.id),
        eq(webhookDeliveries.status, "pending"),
        eq(webhookDeliveries.attempts, claim.attempts),
        eq(webhookDeliveries.nextAttemptAt, claim.due),
        or(isNull(webhookDeliveries.claimedUntil), lt(webhookDeliveries.claimedUntil, claim.now)),
      ),
    )
    .run();
  return result.meta.changes === 1;
}

/**
 * Lets go of a claim without an attempt (it moves to another lane): only the claim of the
 * same attempt, so a newer one is never released.
 */
export function releaseClaimStatement(
  db: Database,
  claim: { id: string; attempts: number; due: string },
): BatchItem<"sqlite"> {
  return db
    .update(webhookDeliveries)
    .set({ claimedUntil: null })
    .where(
      and(
        eq(webhookDeliveries.id, claim.id),
        eq(webhookDeliveries.status, "pending"),
        eq(webhookDeliveries.attempts, claim.attempts),
        eq(webhookDeliveries.nextAttemptAt, claim.due),
      ),
    );
}

/** The outcome of one attempt, written as one batch. */
export interface AttemptOutcome {
  delivery: DeliveryRow;
  status: DeliveryStatus;
  responseStatus: number | null;
  nextAttemptAt: string;
  attemptedAt: string;
  durationMs: number;
  errorClass: string | null;
}

/**
 * The attempt log's line for a request lost on its connection before any answer and sent
 * again at once: it is not an attempt, so nothing else changes.
 */
export function lostRequestStatement(
  db: Database,
  line: { deliveryId: string; attemptedAt: string; durationMs: number },
): BatchItem<"sqlite"> {
  return db.insert(webhookAttempts).values({
    ...line,
    responseStatus: null,
    errorClass: "connection_lost",
  });
}

/** Records an attempt: the delivery's new state, the log line and the endpoint's last outcome. */
export function recordAttemptStatements(
  db: Database,
  outcome: AttemptOutcome,
): BatchItem<"sqlite">[] {
  const { delivery } = outcome;
  return [
    db
      .update(webhookDeliveries)
      .set({
        status: outcome.status,
        attempts: delivery.attempts + 1,
        responseStatus: outcome.responseStatus,
        nextAttemptAt: outcome.nextAttemptAt,
        claimedUntil: null,
        updatedAt: outcome.attemptedAt,
      })
      .where(eq(webhookDeliveries.id, delivery.id)),
    db.insert(webhookAttempts).values({
      deliveryId: delivery.id,
      attemptedAt: outcome.attemptedAt,
      responseStatus: outcome.responseStatus,
      durationMs: outcome.durationMs,
      errorClass: outcome.errorClass,
    }),
    db
      .update(webhookEndpoints)
      .set({
        lastDeliveryId: delivery.id,
        lastAttemptAt: outcome.attemptedAt,
        lastAttemptOutcome: outcome.errorClass === null ? "succeeded" : "failed",
        lastResponseStatus: outcome.responseStatus,
      })
      .where(eq(webhookEndpoints.id, delivery.endpointId)),
  ];
}

/** Ends a pending delivery without an attempt (its endpoint is disabled or gone). */
export async function failWithoutAttempt(db: Database, id: string, now: string): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ status: "failed", claimedUntil: null, updatedAt: now })
    .where(eq(webhookDeliveries.id, id));
}

/** Pending deliveries due before `before` that no attempt holds: their message was lost. */
export async function strandedDeliveries(
  db: Database,
  before: string,
  now: string,
  limit: number,
): Promise<DeliveryRow[]> {
  return db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.status, "pending"),
        lte(webhookDeliveries.nextAttemptAt, before),
        or(isNull(webhookDeliveries.claimedUntil), lt(webhookDeliveries.claimedUntil, now)),
      ),
    )
    .orderBy(asc(webhookDeliveries.nextAttemptAt))
    .limit(limit);
}

/** The columns that make a delivery new again: pending, no attempts, due now. */
function freshDelivery(now: string) {
  return {
    status: "pending",
    attempts: 0,
    responseStatus: null,
    nextAttemptAt: now,
    claimedUntil: null,
    updatedAt: now,
  } as const;
}

/** Makes a delivery new again: pending, no attempts, due now. Returns the row. */
export async function resetDelivery(db: Database, id: string, now: string): Promise<DeliveryRow> {
  const [row] = await db
    .update(webhookDeliveries)
    .set(freshDelivery(now))
    .where(eq(webhookDeliveries.id, id))
    .returning();
  if (!row) throw new Error(`delivery ${id} vanished`);
  return row;
}

/** Resets every failed delivery of an endpoint created in [since, until); returns them. */
export async function resetFailedDeliveries(
  db: Database,
  endpointId: string,
  window: { since: string; until: string },
  now: string,
): Promise<DeliveryRow[]> {
  return db
    .update(webhookDeliveries)
    .set(freshDelivery(now))
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpointId),
        eq(webhookDeliveries.status, "failed"),
        gte(webhookDeliveries.createdAt, window.since),
        lt(webhookDeliveries.createdAt, window.until),
      ),
    )
    .returning();
}

/** The attempt log of a delivery, oldest first. */
export async function attemptsOf(db: Database, deliveryId: string): Promise<AttemptRow[]> {
  return db
    .select()
    .from(webhookAttempts)
    .where(eq(webhookAttempts.deliveryId, deliveryId))
    .orderBy(asc(webhookAttempts.id));
}

/** Appends an event that is fanned out already (a test event bound for one endpoint). */
export function insertDispatchedEventStatement(
  db: Database,
  event: Omit<EventRow, "dispatchedAt">,
): BatchItem<"sqlite"> {
  return db.insert(events).values({ ...event, dispatchedAt: event.createdAt });
}
