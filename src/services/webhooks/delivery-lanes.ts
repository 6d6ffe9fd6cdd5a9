import type { BatchItem } from "drizzle-orm/batch";
import { runBatch } from "../../db/client";
import { type DeliveryRow, releaseClaimStatement } from "../../db/repos/webhook-deliveries";
import { type EndpointRow, updateEndpointStatement } from "../../db/repos/webhook-endpoints";
import { nowIso } from "../../lib/clock";
import type { Deps } from "../deps";
import { DELIVERY_TIMEOUT_MS, FAST_LANE_TIMEOUT_MS } from "./config";
import { attemptMessage } from "./enqueue-attempts";

/**
 * Where an attempt is made: the fast lane (`webhook-deliveries`) waits FAST_LANE_TIMEOUT_MS
 * for an answer, the slow lane (`webhook-slow`) the full DELIVERY_TIMEOUT_MS. A receiver that
 * hangs then holds only slow-lane batches, never the fast lane every other endpoint uses.
 */
export type Lane = "fast" | "slow";

/** How long an attempt of the lane waits for the receiver's answer. */
export function laneTimeoutMs(lane: Lane): number {
  return lane === "fast" ? FAST_LANE_TIMEOUT_MS : DELIVERY_TIMEOUT_MS;
}

/** Whether the endpoint's attempts skip the fast lane (it outlasted it lately). */
export function inSlowLane(endpoint: EndpointRow): boolean {
  return endpoint.slowSince !== null;
}

/**
 * The endpoint's lane after an attempt that reached it (an answer, a timeout or a network
 * failure) and took `durationMs`: an answer within the fast lane's timeout brings it back.
 */
export function laneAfter(
  endpoint: EndpointRow,
  durationMs: number,
  now: number,
): Pick<EndpointRow, "slowSince"> {
  if (durationMs < FAST_LANE_TIMEOUT_MS) return { slowSince: null };
  return { slowSince: endpoint.slowSince ?? nowIso(now) };
}

/** Sends the delivery's current attempt, unchanged, to the slow lane. */
export async function sendToSlowLane(
  deps: Pick<Deps, "queues" | "clock">,
  delivery: Pick<DeliveryRow, "id" | "attempts" | "nextAttemptAt" | "requestId">,
): Promise<void> {
  const { body, ...options } = attemptMessage(delivery, deps.clock.now());
  await deps.queues.webhooksSlow.send(body, options);
}

/**
 * A fast-lane attempt cut off by its timeout: it is not an attempt of the schedule (the
 * receiver had no full chance to answer), so nothing is recorded but the endpoint's move to
 * the slow lane; the claim is let go before the slow lane's message exists, so that message
 * can claim it, and the same attempt is made there with the full timeout and a new signature.
 * `logged` are attempt-log lines written in the same batch (a request lost before it).
 */
export async function moveToSlowLane(
  deps: Deps,
  endpoint: EndpointRow,
  delivery: DeliveryRow,
  logged: BatchItem<"sqlite">[] = [],
): Promise<void> {
  const now = deps.clock.now();
  await runBatch(deps.db, [
    ...logged,
    releaseClaimStatement(deps.db, {
      id: delivery.id,
      attempts: delivery.attempts,
      due: delivery.nextAttemptAt,
    }),
    updateEndpointStatement(deps.db, endpoint.id, {
      slowSince: endpoint.slowSince ?? nowIso(now),
    }),
  ]);
  await sendToSlowLane(deps, delivery);
}
