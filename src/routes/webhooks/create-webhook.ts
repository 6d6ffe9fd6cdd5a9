import type { OpenAPIHono } from "@hono/zod-openapi";
import type { HonoEnv } from "../../middleware/hono-env";
import { presentEndpoint } from "../../services/presenters/webhook";
import { createEndpoint } from "../../services/webhooks/endpoints";
import { byKey } from "../audited-by";
import { alphaRoute } from "../define";
import { CreateEndpointBodySchema, EndpointWithSecretSchema } from "./schemas";

const route = alphaRoute(
  { permission: "MANAGE_WEBHOOKS" },
  {
    method: "post",
    path: "/webhooks",
    operationId: "createWebhookEndpoint",
    tags: ["Webhooks"],
    summary: "Register a webhook endpoint",
    description:
      "Registers a URL for events of this workspace. The answer holds the signing secret (`whsec_…`), shown only here; deliveries are signed with it (Standard Webhooks).",
    request: {
      body: {
        required: true,
        content: { "application/json": { schema: CreateEndpointBodySchema } },
      },
    },
    responses: {
      201: {
        description: "The endpoint with its secret",
        content: { "application/json": { schema: EndpointWithSecretSchema } },
      },
    },
  },
);

/** POST /webhooks */
export function registerCreateWebhook(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { row, secret } = await createEndpoint(
      c.var.deps,
      c.var.auth.workspaceId,
      c.req.valid("json"),
      byKey(c),
    );
    return c.json({ ...presentEndpoint(row), secret }, 201);
  });
}
