import type { OpenAPIHono } from "@hono/zod-openapi";
import type { HonoEnv } from "../../middleware/hono-env";
import { presentEndpoint } from "../../services/presenters/webhook";
import { patchEndpoint } from "../../services/webhooks/endpoints";
import { byKey } from "../audited-by";
import { alphaRoute } from "../define";
import { EndpointParamsSchema, requireEndpoint } from "./params";
import { EndpointSchema, PatchEndpointBodySchema } from "./schemas";

const route = alphaRoute(
  { permission: "MANAGE_WEBHOOKS" },
  {
    method: "patch",
    path: "/webhooks/{webhook_id}",
    operationId: "updateWebhookEndpoint",
    tags: ["Webhooks"],
    summary: "Update a webhook endpoint",
    description:
      "Changes the URL, the event types, the description, or turns deliveries off (`enabled: false`) and on again. Enabling clears `disabled_reason`.",
    request: {
      params: EndpointParamsSchema,
      body: {
        required: true,
        content: { "application/json": { schema: PatchEndpointBodySchema } },
      },
    },
    responses: {
      200: {
        description: "The changed endpoint",
        content: { "application/json": { schema: EndpointSchema } },
      },
    },
  },
);

/** PATCH /webhooks/{webhook_id} */
export function registerUpdateWebhook(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { webhook_id } = c.req.valid("param");
    const row = await requireEndpoint(c.var.deps, c.var.auth.workspaceId, webhook_id);
    const changed = await patchEndpoint(c.var.deps, row, c.req.valid("json"), byKey(c));
    return c.json(presentEndpoint(changed), 200);
  });
}
