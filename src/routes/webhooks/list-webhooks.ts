import type { OpenAPIHono } from "@hono/zod-openapi";
import { listEndpoints } from "../../db/repos/webhook-endpoints";
import { listScope, pageQuery, toPage } from "../../lib/pagination";
import type { HonoEnv } from "../../middleware/hono-env";
import { PageQuerySchema, pageSchema } from "../../schemas/page";
import { presentEndpoint } from "../../services/presenters/webhook";
import { alphaRoute } from "../define";
import { EndpointSchema } from "./schemas";

const route = alphaRoute(
  { permission: "MANAGE_WEBHOOKS" },
  {
    method: "get",
    path: "/webhooks",
    operationId: "listWebhookEndpoints",
    tags: ["Webhooks"],
    summary: "List webhook endpoints",
    description: "The workspace's endpoints, newest first. Secrets are never listed.",
    request: { query: PageQuerySchema },
    responses: {
      200: {
        description: "A page of endpoints",
        content: {
          "application/json": { schema: pageSchema(EndpointSchema, "WebhookEndpointListPage") },
        },
      },
    },
  },
);

/** GET /webhooks */
export function registerListWebhooks(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { workspaceId } = c.var.auth;
    const list = listScope(c.var.deps.secrets.signing(), "webhooks", workspaceId);
    const page = await pageQuery(list, c.req.valid("query"));
    const rows = await listEndpoints(c.var.deps.db, workspaceId, page);
    return c.json(await toPage(list, rows, page.limit, (row) => [row.id], presentEndpoint), 200);
  });
}
