import type { OpenAPIHono } from "@hono/zod-openapi";
import type { HonoEnv } from "../../middleware/hono-env";
import { registerCreateWebhook } from "./create-webhook";
import { registerDeleteWebhook } from "./delete-webhook";
import { registerGetDelivery } from "./get-delivery";
import { registerGetWebhook } from "./get-webhook";
import { registerListDeliveries } from "./list-deliveries";
import { registerListWebhooks } from "./list-webhooks";
import { registerRecover } from "./recover";
import { registerRedeliver } from "./redeliver";
import { registerRotateSecret } from "./rotate-secret";
import { registerTestWebhook } from "./test-webhook";
import { registerUpdateWebhook } from "./update-webhook";

/** Registers the webhook routes (the spec's Webhooks section and its decisions on webhooks). */
export function registerWebhookRoutes(app: OpenAPIHono<HonoEnv>) {
  registerCreateWebhook(app);
  registerListWebhooks(app);
  registerGetWebhook(app);
  registerUpdateWebhook(app);
  registerDeleteWebhook(app);
  registerRotateSecret(app);
  registerListDeliveries(app);
  registerGetDelivery(app);
  registerRedeliver(app);
  registerRecover(app);
  registerTestWebhook(app);
}
