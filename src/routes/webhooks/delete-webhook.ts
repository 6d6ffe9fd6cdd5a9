import type { OpenAPIHono } from "@hono/zod-openapi";
import { deleteEndpoint } from "../../db/repos/webhook-endpoints";
import type { HonoEnv } from "../../middleware/hono-env";
import { byKey } from "../audited-by";
import { alphaRoute } from "../define";
import { EndpointParamsSchema, requireEndpoint } from "./params";

const route = alphaRoute(
  { permission: "MANAGE_WEBHOOKS" },
  {
    method: "delete",
    path: "/webhooks/{webhook_id}",
    operationId: "deleteWebhookEndpoint",
    tags: ["Webhooks"],
    summary: "Delete a webhook endpoint",
    description:
      "Deletes the endpoint with its delivery history; attempts already queued find nothing and stop.",
    request: { params: EndpointParamsSchema },
    responses: { 204: { description: "Deleted" } },
  },
);

/** DELETE /webhooks/{webhook_id} */
export function registerDeleteWebhook(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { webhook_id } = c.req.valid("param");
    const row = await requireEndpoint(c.var.deps, c.var.auth.workspaceId, webhook_id);
    await deleteEndpoint(c.var.deps.db, row, byKey(c));
    return c.body(null, 204);
  });
}
