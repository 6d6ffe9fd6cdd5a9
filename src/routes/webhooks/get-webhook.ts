import type { OpenAPIHono } from "@hono/zod-openapi";
import type { HonoEnv } from "../../middleware/hono-env";
import { presentEndpoint } from "../../services/presenters/webhook";
import { alphaRoute } from "../define";
import { EndpointParamsSchema, requireEndpoint } from "./params";
import { EndpointSchema } from "./schemas";

const route = alphaRoute(
  { permission: "MANAGE_WEBHOOKS" },
  {
    method: "get",
    path: "/webhooks/{webhook_id}",
    operationId: "getWebhookEndpoint",
    tags: ["Webhooks"],
    summary: "Get a webhook endpoint",
    description: "One endpoint: whether it is enabled, why not, and its last delivery's outcome.",
    request: { params: EndpointParamsSchema },
    responses: {
      200: {
        description: "The endpoint",
        content: { "application/json": { schema: EndpointSchema } },
      },
    },
  },
);

/** GET /webhooks/{webhook_id} */
export function registerGetWebhook(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { webhook_id } = c.req.valid("param");
    const row = await requireEndpoint(c.var.deps, c.var.auth.workspaceId, webhook_id);
    return c.json(presentEndpoint(row), 200);
  });
}
