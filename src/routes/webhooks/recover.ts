import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { invalidRequest } from "../../errors/api-error";
import { nowIso } from "../../lib/clock";
import type { HonoEnv } from "../../middleware/hono-env";
import { TimestampSchema } from "../../schemas/common";
import { recoverFailed } from "../../services/webhooks/redeliver";
import { alphaRoute } from "../define";
import { EndpointParamsSchema, requireEndpoint } from "./params";

const RecoverBodySchema = z
  .strictObject({
    since: TimestampSchema.openapi({ description: "Deliveries created at or after this instant" }),
    until: TimestampSchema.optional().openapi({
      description: "Deliveries created before this instant (default: now)",
    }),
  })
  .openapi("RecoverWebhookDeliveries");

const route = alphaRoute(
  { permission: "MANAGE_WEBHOOKS", errors: [409] },
  {
    method: "post",
    path: "/webhooks/{webhook_id}/recover",
    operationId: "recoverWebhookDeliveries",
    tags: ["Webhooks"],
    summary: "Queue failed deliveries again",
    description:
      "Queues every `failed` delivery of this endpoint created in [since, until) again, each with its attempts back to 0, for example after the receiver was down. A disabled endpoint answers 409: enable it first.",
    request: {
      params: EndpointParamsSchema,
      body: { required: true, content: { "application/json": { schema: RecoverBodySchema } } },
    },
    responses: {
      202: {
        description: "How many deliveries were queued",
        content: {
          "application/json": {
            schema: z
              .object({ queued: z.number().int().openapi({ example: 12 }) })
              .openapi("WebhookRecovery"),
          },
        },
      },
    },
  },
);

/** POST /webhooks/{webhook_id}/recover */
export function registerRecover(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { webhook_id } = c.req.valid("param");
    const body = c.req.valid("json");
    const since = nowIso(Date.parse(body.since));
    const until = nowIso(
      body.until === undefined ? c.var.deps.clock.now() : Date.parse(body.until),
    );
    if (since >= until) throw invalidRequest([{ path: "until", message: "must be after since" }]);
    const endpoint = await requireEndpoint(c.var.deps, c.var.auth.workspaceId, webhook_id);
    const queued = await recoverFailed(c.var.deps, endpoint, { since, until });
    return c.json({ queued }, 202);
  });
}
