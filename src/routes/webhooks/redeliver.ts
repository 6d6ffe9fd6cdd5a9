import type { OpenAPIHono } from "@hono/zod-openapi";
import type { HonoEnv } from "../../middleware/hono-env";
import { presentDelivery } from "../../services/presenters/webhook";
import { redeliver } from "../../services/webhooks/redeliver";
import { alphaRoute } from "../define";
import { DeliveryParamsSchema, requireDelivery } from "./params";
import { DeliverySchema } from "./schemas";

const route = alphaRoute(
  { permission: "MANAGE_WEBHOOKS", errors: [409] },
  {
    method: "post",
    path: "/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver",
    operationId: "redeliverWebhookDelivery",
    tags: ["Webhooks"],
    summary: "Redeliver a past delivery",
    description:
      "Queues one past (delivered or failed) delivery again: `attempts` back to 0, no longer final. Answers before the new attempt runs; follow the outcome in the delivery history. A delivery still pending, or an endpoint that is disabled, answers 409.",
    request: { params: DeliveryParamsSchema },
    responses: {
      202: {
        description: "The delivery, queued again",
        content: { "application/json": { schema: DeliverySchema } },
      },
    },
  },
);

/** POST /webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver */
export function registerRedeliver(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const params = c.req.valid("param");
    const { endpoint, delivery } = await requireDelivery(
      c.var.deps,
      c.var.auth.workspaceId,
      params,
    );
    return c.json(presentDelivery(await redeliver(c.var.deps, endpoint, delivery)), 202);
  });
}
