import { runBatch } from "../../db/client";
import {
  type DeliveryRow,
  deliveryById,
  insertDeliveryStatement,
  insertDispatchedEventStatement,
  resetDelivery,
  resetFailedDeliveries,
} from "../../db/repos/webhook-deliveries";
import type { EndpointRow } from "../../db/repos/webhook-endpoints";
import { ApiError } from "../../errors/api-error";
import { nowIso } from "../../lib/clock";
import { newId } from "../../lib/ids";
import type { Deps } from "../deps";
import { enqueueAttempts } from "./enqueue-attempts";
import { TEST_EVENT_TYPE } from "./event-types";

function assertEnabled(endpoint: EndpointRow): void {
  if (!endpoint.enabled) {
    throw new ApiError(
      "conflict",
      `Webhook endpoint ${endpoint.id} is disabled (${endpoint.disabledReason ?? "manual"}); enable it with PATCH first.`,
    );
  }
}

/**
 * Queues a past delivery again (the spec's States and transitions section): attempts back to 0,
 * non-final, due now. A delivery still pending has its attempts running already, so it answers 409.
 */
export async function redeliver(
  deps: Deps,
  endpoint: EndpointRow,
  delivery: DeliveryRow,
): Promise<DeliveryRow> {
  assertEnabled(endpoint);
  if (delivery.status === "pending") {
    throw new ApiError(
      "conflict",
      `Delivery ${delivery.id} is still pending; its next attempt is due at ${delivery.nextAttemptAt}.`,
    );
  }
  const row = await resetDelivery(deps.db, delivery.id, nowIso(deps.clock.now()));
  await enqueueAttempts(deps, [row]);
  return row;
}

/** Queues every failed delivery of an endpoint created in [since, until) again; returns how many. */
export async function recoverFailed(
  deps: Deps,
  endpoint: EndpointRow,
  window: { since: string; until: string },
): Promise<number> {
  assertEnabled(endpoint);
  const rows = await resetFailedDeliveries(deps.db, endpoint.id, window, nowIso(deps.clock.now()));
  await enqueueAttempts(deps, rows);
  return rows.length;
}

/**
 * Sends a `webhook.test` event to this endpoint alone, recorded in its history under the
 * request that asked for it.
 */
export async function sendTestEvent(
  deps: Deps,
  endpoint: EndpointRow,
  requestId: string,
): Promise<DeliveryRow> {
  assertEnabled(endpoint);
  const now = nowIso(deps.clock.now());
  const eventId = newId("evt");
  const deliveryId = newId("delivery");
  await runBatch(deps.db, [
    insertDispatchedEventStatement(deps.db, {
      id: eventId,
      workspaceId: endpoint.workspaceId,
      type: TEST_EVENT_TYPE,
      data: {
        webhook_id: endpoint.id,
        message: "A test event: your endpoint receives and verifies deliveries.",
      },
      createdAt: now,
      requestId,
    }),
    insertDeliveryStatement(deps.db, {
      id: deliveryId,
      workspaceId: endpoint.workspaceId,
      endpointId: endpoint.id,
      eventId,
      eventType: TEST_EVENT_TYPE,
      requestId,
      status: "pending",
      attempts: 0,
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    }),
  ]);
  const row = await deliveryById(deps.db, deliveryId);
  if (!row) throw new Error(`delivery ${deliveryId} was not stored`);
  await enqueueAttempts(deps, [row]);
  return row;
}
