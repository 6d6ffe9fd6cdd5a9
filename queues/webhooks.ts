import { DeliverWebhookMessageSchema } from "../src/lib/queue-messages";
import type { Deps } from "../src/services/deps";
import { attemptDelivery } from "../src/services/webhooks/deliver";
import type { WebhookTransport } from "../src/services/webhooks/transport";
import { retryDelaySeconds } from "./consume";

/** How long a batch waits on one receiver before that attempt goes on in the background. */
export const RECEIVER_PATIENCE_MS = 1_000;

/** Keeps work alive after the handler returns (`ctx.waitUntil`). */
export type Background = (work: Promise<unknown>) => void;

/**
 * The webhook queue: one attempt per message, the messages of a batch in parallel (they
 * are mostly waiting on receivers). Retries of the schedule are new messages, not queue
 * retries; a queue retry only follows an error of our own (D1 unavailable and the like).
 *
 * With `background`, an attempt still waiting on its receiver after RECEIVER_PATIENCE_MS
 * goes on in the background and its message is acknowledged: a slow or hanging endpoint then
 * holds only its own attempts (up to their 15 s timeout), never the batch and the queue
 * behind it, where other endpoints' deliveries wait. The attempt records itself when it ends;
 * its claim keeps any other attempt of the delivery away, and the sweep re-sends a delivery
 * whose background attempt was lost with its isolate.
 */
export async function consumeWebhooks(
  batch: MessageBatch,
  deps: Deps,
  transport: WebhookTransport,
  background?: Background,
): Promise<void> {
  await Promise.all(
    batch.messages.map(async (message) => {
      const parsed = DeliverWebhookMessageSchema.safeParse(message.body);
      if (!parsed.success) {
        console.error(
          JSON.stringify({ queue: batch.queue, dropped: message.id, reason: "malformed message" }),
        );
        message.ack();
        return;
      }
      const attempt = attemptDelivery(deps, transport, parsed.data);
      const failed = (error: unknown) =>
        console.error(
          JSON.stringify({
            queue_message: message.id,
            delivery: parsed.data.delivery_id,
            error: String(error),
          }),
        );
      try {
        if (background && (await outlasts(attempt, RECEIVER_PATIENCE_MS))) {
          background(attempt.catch(failed));
          message.ack();
          return;
        }
        await attempt;
        message.ack();
      } catch (error) {
        failed(error);
        message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
      }
    }),
  );
}

/** Whether `work` is still pending after `ms` (a rejection counts as ended, and is thrown). */
async function outlasts(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<true>((resolve) => {
    timer = setTimeout(() => resolve(true), ms);
  });
  const ended = work.then(() => false as const);
  // Marked handled: a rejection after the wait is the background's to log, not unhandled.
  ended.catch(() => undefined);
  try {
    return await Promise.race([ended, late]);
  } finally {
    clearTimeout(timer);
  }
}
