/** The events an endpoint can subscribe to (the spec's decisions on webhooks). */
export const WEBHOOK_EVENT_TYPES = [
  "video.indexed",
  "video.failed",
  "video.deleted",
  "run.completed",
  "run.failed",
  "run.canceled",
  "report.created",
] as const;

/** The event `POST /webhooks/{id}/test` sends to one endpoint. */
export const TEST_EVENT_TYPE = "webhook.test";

/** One subscribable event type. */
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Whether an endpoint subscribed to `subscribed` receives events of `type`. */
export function subscribes(subscribed: readonly string[], type: string): boolean {
  // A test event goes to the one endpoint it was sent to, never through subscriptions.
  if (type === TEST_EVENT_TYPE) return false;
  return subscribed.includes("*") || subscribed.includes(type);
}
