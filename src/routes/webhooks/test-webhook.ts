import type { OpenAPIHono } from "@hono/zod-openapi";
import type { HonoEnv } from "../../middleware/hono-env";
import { presentDelivery } from "../../services/presenters/webhook";
import { sendTestEvent } from "../../services/webhooks/redeliver";
import { alphaRoute } from "../define";
import { EndpointParamsSchema, requireEndpoint } from "./params";
import { DeliverySchema } from "./schemas";

const route = alphaRoute(
  { permission: "MANAGE_WEBHOOKS", errors: [409] },
  {
    method: "post",
    path: "/webhooks/{webhook_id}/test",
    operationId: "sendWebhookTest",
    tags: ["Webhooks"],
    summary: "Send a test event",
    description:
      "Sends a `webhook.test` event to this endpoint alone, signed and retried like any delivery and recorded in its history. A disabled endpoint answers 409.",
    request: { params: EndpointParamsSchema },
    responses: {
      202: {
        description: "The test delivery, queued",
        content: { "application/json": { schema: DeliverySchema } },
      },
    },
  },
);

/** POST /webhooks/{webhook_id}/test */
export function registerTestWebhook(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { webhook_id } = c.req.valid("param");
    const endpoint = await requireEndpoint(c.var.deps, c.var.auth.workspaceId, webhook_id);
    return c.json(presentDelivery(await sendTestEvent(c.var.deps, endpoint, c.var.requestId)), 202);
  });
}
