import { DeliverWebhookMessageSchema } from "../lib/queue-messages";
import { type Deps, withRequest } from "../services/deps";
import { attemptDelivery } from "../services/webhooks/deliver";
import type { Lane } from "../services/webhooks/delivery-lanes";
import type { WebhookTransport } from "../services/webhooks/transport";
import { retryDelaySeconds } from "./consume";

/**
 * A webhook queue (one lane): one attempt per message, the messages of a batch in parallel
 * (they are mostly waiting on receivers). Retries of the schedule are new messages, not queue
 * retries; a queue retry only follows an error of our own (D1 unavailable and the like).
 *
 * A batch ends when its slowest attempt ends, and the next batch of the queue waits for it
 * (locally always; deployed, also when the queue does not scale out). The fast lane's
 * attempts therefore end within its short timeout: a receiver that has not answered by then
 * is given up there and tried in the slow lane (src/services/webhooks/delivery-lanes.ts).
 */
export async function consumeWebhooks(
  batch: MessageBatch,
  deps: Deps,
  transport: WebhookTransport,
  lane: Lane,
): Promise<void> {
  await Promise.all(
    batch.messages.map(async (message) => {
      const parsed = DeliverWebhookMessageSchema.safeParse(message.body);
      if (!parsed.success) {
        deps.log.error({ queue: batch.queue, dropped: message.id, reason: "malformed message" });
        message.ack();
        return;
      }
      const scoped = withRequest(deps, parsed.data.request_id);
      try {
        await attemptDelivery(scoped, transport, parsed.data, lane);
        message.ack();
      } catch (error) {
        scoped.log.error({
          queue_message: message.id,
          delivery: parsed.data.delivery_id,
          error: String(error),
        });
        message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
      }
    }),
  );
}
