import { z } from "zod";
import type { Deps } from "../src/services/deps";
import { attemptDelivery } from "../src/services/webhooks/deliver";
import type { DeliverWebhookMessage } from "../src/services/webhooks/message";
import type { WebhookTransport } from "../src/services/webhooks/transport";
import { retryDelaySeconds } from "./consume";

/** Webhook queue: what a consumer accepts as a deliver-webhook message. */
export const DeliverWebhookMessageSchema = z.object({
  type: z.literal("deliver-webhook"),
  delivery_id: z.string(),
  attempts: z.number().int().min(0),
  due: z.string(),
}) satisfies z.ZodType<DeliverWebhookMessage>;

/**
 * The webhook queue: one attempt per message, the messages of a batch in parallel (they
 * are mostly waiting on receivers). Retries of the schedule are new messages, not queue
 * retries; a queue retry only follows an error of our own (D1 unavailable and the like).
 */
export async function consumeWebhooks(
  batch: MessageBatch,
  deps: Deps,
  transport: WebhookTransport,
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
      try {
        await attemptDelivery(deps, transport, parsed.data);
        message.ack();
      } catch (error) {
        console.error(
          JSON.stringify({
            queue_message: message.id,
            delivery: parsed.data.delivery_id,
            error: String(error),
          }),
        );
        message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
      }
    }),
  );
}
