import type { OpenAPIHono } from "@hono/zod-openapi";
import { attemptsOf } from "../../db/repos/webhook-deliveries";
import type { HonoEnv } from "../../middleware/hono-env";
import { presentAttempt, presentDelivery } from "../../services/presenters/webhook";
import { alphaRoute } from "../define";
import { DeliveryParamsSchema, requireDelivery } from "./params";
import { DeliveryDetailSchema } from "./schemas";

const route = alphaRoute(
  { permission: "MANAGE_WEBHOOKS" },
  {
    method: "get",
    path: "/webhooks/{webhook_id}/deliveries/{delivery_id}",
    operationId: "getWebhookDelivery",
    tags: ["Webhooks"],
    summary: "Get a delivery with its attempt log",
    description:
      "One delivery and every attempt made for it, oldest first, across redeliveries: time, HTTP status, duration and why it failed. Response bodies are never stored.",
    request: { params: DeliveryParamsSchema },
    responses: {
      200: {
        description: "The delivery",
        content: { "application/json": { schema: DeliveryDetailSchema } },
      },
    },
  },
);

/** GET /webhooks/{webhook_id}/deliveries/{delivery_id} */
export function registerGetDelivery(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const params = c.req.valid("param");
    const { delivery } = await requireDelivery(c.var.deps, c.var.auth.workspaceId, params);
    const attempts = await attemptsOf(c.var.deps.db, delivery.id);
    return c.json({ ...presentDelivery(delivery), attempt_log: attempts.map(presentAttempt) }, 200);
  });
}
