/**
 * Webhook queue: make one attempt of one delivery. `attempts` and `due` name the attempt
 * the message was sent for; a message that no longer matches the delivery is stale.
 */
export interface DeliverWebhookMessage {
  type: "deliver-webhook";
  delivery_id: string;
  attempts: number;
  due: string;
}
