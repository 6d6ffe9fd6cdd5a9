import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { listDeliveries } from "../../db/repos/webhook-deliveries";
import { listScope, pageQuery, toPage } from "../../lib/pagination";
import type { HonoEnv } from "../../middleware/hono-env";
import { PageQuerySchema, pageSchema } from "../../schemas/page";
import { presentDelivery } from "../../services/presenters/webhook";
import { alphaRoute } from "../define";
import { EndpointParamsSchema, requireEndpoint } from "./params";
import { DeliverySchema } from "./schemas";

const route = alphaRoute(
  { permission: "MANAGE_WEBHOOKS" },
  {
    method: "get",
    path: "/webhooks/{webhook_id}/deliveries",
    operationId: "listWebhookDeliveries",
    tags: ["Webhooks"],
    summary: "List an endpoint's deliveries",
    description: "The delivery history of one endpoint, newest first, optionally filtered.",
    request: {
      params: EndpointParamsSchema,
      query: PageQuerySchema.extend({
        status: z.enum(["pending", "delivered", "failed"]).optional().openapi({
          description: "Only deliveries in this status",
        }),
        event_type: z.string().min(1).max(100).optional().openapi({
          description: "Only deliveries of this event type",
          example: "video.indexed",
        }),
      }),
    },
    responses: {
      200: {
        description: "A page of deliveries",
        content: {
          "application/json": { schema: pageSchema(DeliverySchema, "WebhookDeliveryListPage") },
        },
      },
    },
  },
);

/** GET /webhooks/{webhook_id}/deliveries */
export function registerListDeliveries(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { webhook_id } = c.req.valid("param");
    const query = c.req.valid("query");
    const endpoint = await requireEndpoint(c.var.deps, c.var.auth.workspaceId, webhook_id);
    const list = listScope(
      c.var.deps.secrets.signing(),
      "deliveries",
      endpoint.id,
      query.status,
      query.event_type,
    );
    const page = await pageQuery(list, query);
    const filter = { status: query.status, eventType: query.event_type };
    const rows = await listDeliveries(c.var.deps.db, endpoint.id, filter, page);
    return c.json(await toPage(list, rows, page.limit, (row) => [row.id], presentDelivery), 200);
  });
}
