import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { findWorkspace } from "../../db/repos/workspaces";
import { notFound } from "../../errors/api-error";
import type { HonoEnv } from "../../middleware/hono-env";
import { idParam } from "../../schemas/common";
import { usageReport } from "../../services/usage/report";
import { problemResponses } from "../define";
import { UsageQuerySchema, UsageReportSchema } from "../usage/schemas";

const route = createRoute({
  method: "get",
  operationId: "getWorkspaceUsage",
  path: "/workspaces/{id}/usage",
  tags: ["Admin"],
  summary: "Get a workspace's usage",
  description:
    "The workspace's usage, as its own keys read it with GET /api/v1alpha1/usage: the same query, the same body.",
  request: {
    params: z.object({ id: idParam("id", "ws_01jd3m6t8y0c7x4k2n9q5r1s3v") }),
    query: UsageQuerySchema,
  },
  responses: {
    200: {
      description: "The usage, one entry per period and totals",
      content: { "application/json": { schema: UsageReportSchema } },
    },
    ...problemResponses([400, 401, 404]),
  },
});

/** GET /admin/v1/workspaces/{id}/usage */
export function registerWorkspaceUsage(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    if (!(await findWorkspace(c.var.deps.db, id))) throw notFound("Workspace", id);
    return c.json(await usageReport(c.var.deps, id, c.req.valid("query")), 200);
  });
}
