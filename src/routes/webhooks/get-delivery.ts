import type { OpenAPIHono } from "@hono/zod-openapi";
import { attemptsOf, findDelivery } from "../../db/repos/webhook-deliveries";
import { notFound } from "../../errors/api-error";
import type { HonoEnv } from "../../middleware/hono-env";
import { alphaRoute } from "../define";
import { DeliveryParamsSchema, requireEndpoint } from "./params";
import { DeliveryDetailSchema, presentAttempt, presentDelivery } from "./schemas";

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
    const { webhook_id, delivery_id } = c.req.valid("param");
    const { workspaceId } = c.var.auth;
    const endpoint = await requireEndpoint(c.var.deps, workspaceId, webhook_id);
    const delivery = await findDelivery(c.var.deps.db, workspaceId, endpoint.id, delivery_id);
    if (!delivery) throw notFound("Delivery", delivery_id);
    const attempts = await attemptsOf(c.var.deps.db, delivery.id);
    return c.json({ ...presentDelivery(delivery), attempt_log: attempts.map(presentAttempt) }, 200);
  });
}
