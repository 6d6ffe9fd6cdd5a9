import { strandedDeliveries } from "../../db/repos/webhook-deliveries";
import { nowIso } from "../../lib/clock";
import type { Deps } from "../deps";
import {
  DISPATCH_BATCH,
  dispatchPendingEvents,
  enqueueAttempts,
} from "../webhooks/enqueue-attempts";

/**
 * A pending delivery whose attempt has not started this long after it was due lost its
 * queue message (a send that failed, a consumer that died): the sweep sends it again.
 * Longer than a queue batch wait and a retried consumer, so a slow message is not doubled
 * (and if it is, the delivery's claim lets only one attempt run).
 */
export const STRANDED_AFTER_MS = 2 * 60 * 1000;
/** Deliveries re-sent per sweep. */
const RESEND_BATCH = 200;

/** What one sweep did for webhooks. */
export interface WebhookSweep {
  dispatched: number;
  resent: number;
}

/**
 * The webhook step of the sweep: fans out every outbox event not dispatched yet (no event
 * is lost when the send after a state change fails), then re-sends deliveries whose message
 * was lost.
 */
export async function sweepWebhooks(deps: Deps): Promise<WebhookSweep> {
  const dispatched = await dispatchPendingEvents(deps, DISPATCH_BATCH);
  const now = deps.clock.now();
  const stranded = await strandedDeliveries(
    deps.db,
    nowIso(now - STRANDED_AFTER_MS),
    nowIso(now),
    RESEND_BATCH,
  );
  await enqueueAttempts(deps, stranded);
  return { dispatched, resent: stranded.length };
}
