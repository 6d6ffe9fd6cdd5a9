import type { OpenAPIHono } from "@hono/zod-openapi";
import { listWorkflows } from "../../db/repos/workflows";
import { listScope, pageQuery, toPage } from "../../lib/pagination";
import type { HonoEnv } from "../../middleware/hono-env";
import { PageQuerySchema, pageSchema } from "../../schemas/page";
import { presentWorkflow } from "../../services/presenters/workflow";
import { alphaRoute } from "../define";
import { WorkflowSchema } from "./schemas";

const route = alphaRoute(
  { permission: "MANAGE_RULEBOOKS" },
  {
    method: "get",
    path: "/workflows",
    operationId: "listWorkflows",
    tags: ["Workflows"],
    summary: "List workflows",
    description: "The workspace's workflows, newest first.",
    request: { query: PageQuerySchema },
    responses: {
      200: {
        description: "A page of workflows",
        content: { "application/json": { schema: pageSchema(WorkflowSchema, "WorkflowPage") } },
      },
    },
  },
);

/** GET /workflows */
export function registerListWorkflows(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const { workspaceId } = c.var.auth;
    const list = listScope(c.var.deps.secrets.signing(), "workflows", workspaceId);
    const page = await pageQuery(list, query);
    const rows = await listWorkflows(c.var.deps.db, workspaceId, page);
    return c.json(await toPage(list, rows, page.limit, (row) => [row.id], presentWorkflow), 200);
  });
}
