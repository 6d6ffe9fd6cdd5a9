import type { OpenAPIHono } from "@hono/zod-openapi";
import type { HonoEnv } from "../../middleware/hono-env";
import { presentEndpoint } from "../../services/presenters/webhook";
import { rotateEndpointSecret } from "../../services/webhooks/endpoints";
import { byKey } from "../audited-by";
import { alphaRoute } from "../define";
import { EndpointParamsSchema, requireEndpoint } from "./params";
import { EndpointWithSecretSchema } from "./schemas";

const route = alphaRoute(
  { permission: "MANAGE_WEBHOOKS" },
  {
    method: "post",
    path: "/webhooks/{webhook_id}/rotate-secret",
    operationId: "rotateWebhookSecret",
    tags: ["Webhooks"],
    summary: "Rotate an endpoint's signing secret",
    description:
      "Issues a new secret, shown only in this answer. For 24 hours every delivery carries two signatures (new and previous secret, space separated in `webhook-signature`), so receivers can switch without losing events.",
    request: { params: EndpointParamsSchema },
    responses: {
      200: {
        description: "The endpoint with its new secret",
        content: { "application/json": { schema: EndpointWithSecretSchema } },
      },
    },
  },
);

/** POST /webhooks/{webhook_id}/rotate-secret */
export function registerRotateSecret(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { webhook_id } = c.req.valid("param");
    const row = await requireEndpoint(c.var.deps, c.var.auth.workspaceId, webhook_id);
    const rotated = await rotateEndpointSecret(c.var.deps, row, byKey(c));
    return c.json({ ...presentEndpoint(rotated.row), secret: rotated.secret }, 200);
  });
}
