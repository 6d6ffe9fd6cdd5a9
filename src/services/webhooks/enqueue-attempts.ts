import { runBatch } from "../../db/client";
import type { EventRow } from "../../db/repos/events";
import {
  type DeliveryRow,
  firstAttemptsOf,
  insertDeliveryStatement,
  markDispatchedStatement,
  undispatchedEvents,
} from "../../db/repos/webhook-deliveries";
import { endpointsForEvent } from "../../db/repos/webhook-endpoints";
import { nowIso } from "../../lib/clock";
import { newId } from "../../lib/ids";
import { causedBy, type DeliverWebhookMessage } from "../../lib/queue-messages";
import { type Deps, withRequest } from "../deps";
import { subscribes } from "./event-types";

/** Events fanned out per call, so one sweep stays well inside its time limit. */
export const DISPATCH_BATCH = 50;
/** `sendBatch` takes at most 100 messages. */
const SEND_BATCH = 100;

/** The queue message for a delivery's next attempt, delayed until it is due (at most 12 h). */
export function attemptMessage(
  delivery: Pick<DeliveryRow, "id" | "attempts" | "nextAttemptAt" | "requestId">,
  now: number,
): MessageSendRequest<DeliverWebhookMessage> {
  const wait = Math.ceil((Date.parse(delivery.nextAttemptAt) - now) / 1000);
  return {
    body: {
      type: "deliver-webhook",
      delivery_id: delivery.id,
      attempts: delivery.attempts,
      due: delivery.nextAttemptAt,
      ...causedBy(delivery.requestId),
    },
    ...(wait > 0 ? { delaySeconds: Math.min(wait, MAX_QUEUE_DELAY_SECONDS) } : {}),
  };
}

/** Queues cap a message's delay at 12 hours; longer waits are chained (deliver.ts). */
export const MAX_QUEUE_DELAY_SECONDS = 12 * 3600;

/** Sends the next attempt of each delivery to the webhook queue. */
export async function enqueueAttempts(
  deps: Pick<Deps, "queues" | "clock">,
  deliveries: Pick<DeliveryRow, "id" | "attempts" | "nextAttemptAt" | "requestId">[],
): Promise<void> {
  const now = deps.clock.now();
  for (let i = 0; i < deliveries.length; i += SEND_BATCH) {
    const messages = deliveries.slice(i, i + SEND_BATCH).map((d) => attemptMessage(d, now));
    if (messages.length > 0) await deps.queues.webhooks.sendBatch(messages);
  }
}

/**
 * Fans one event out: a pending delivery per enabled, subscribed endpoint that existed when
 * the event happened, and the event marked dispatched, in one batch. The unique (event,
 * endpoint) index makes a second fan-out (sweep and caller racing) add nothing. Messages are
 * sent after the batch: a send that fails leaves pending deliveries the sweep re-sends.
 */
export async function dispatchEvent(deps: Deps, event: EventRow): Promise<DeliveryRow[]> {
  const now = nowIso(deps.clock.now());
  const endpoints = (await endpointsForEvent(deps.db, event.workspaceId, event.createdAt)).filter(
    (endpoint) => subscribes(endpoint.eventTypes, event.type),
  );
  await runBatch(deps.db, [
    ...endpoints.map((endpoint) =>
      insertDeliveryStatement(deps.db, {
        id: newId("delivery"),
        workspaceId: event.workspaceId,
        endpointId: endpoint.id,
        eventId: event.id,
        eventType: event.type,
        requestId: event.requestId,
        status: "pending",
        attempts: 0,
        nextAttemptAt: now,
        createdAt: now,
        updatedAt: now,
      }),
    ),
    markDispatchedStatement(deps.db, event.id, now),
  ]);
  if (endpoints.length === 0) return [];
  const deliveries = await firstAttemptsOf(deps.db, event.id);
  await enqueueAttempts(deps, deliveries);
  return deliveries;
}

/**
 * Fans out every event not dispatched yet (a bounded number per call), or only those of the
 * given workspaces; returns how many.
 */
export async function dispatchPendingEvents(
  deps: Deps,
  limit = DISPATCH_BATCH,
  workspaceIds?: readonly string[],
): Promise<number> {
  const pending = await undispatchedEvents(deps.db, limit, workspaceIds);
  for (const event of pending) {
    // One event that cannot be fanned out must not hold back the others.
    await dispatchEvent(deps, event).catch((error: unknown) =>
      withRequest(deps, event.requestId).log.error({ dispatch: event.id, error: String(error) }),
    );
  }
  return pending.length;
}
