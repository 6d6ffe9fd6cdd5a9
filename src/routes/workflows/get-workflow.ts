import type { OpenAPIHono } from "@hono/zod-openapi";
import type { HonoEnv } from "../../middleware/hono-env";
import { getWorkflow } from "../../services/workflows/workflows";
import { alphaRoute } from "../define";
import { WorkflowParamsSchema, WorkflowSchema } from "./schemas";

const route = alphaRoute(
  { permission: "MANAGE_RULEBOOKS" },
  {
    method: "get",
    path: "/workflows/{workflow_id}",
    operationId: "getWorkflow",
    tags: ["Workflows"],
    summary: "Get a workflow",
    description: "One workflow of the workspace; another workspace's answers 404.",
    request: { params: WorkflowParamsSchema },
    responses: {
      200: {
        description: "The workflow",
        content: { "application/json": { schema: WorkflowSchema } },
      },
    },
  },
);

/** GET /workflows/{workflow_id} */
export function registerGetWorkflow(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { workflow_id } = c.req.valid("param");
    return c.json(await getWorkflow(c.var.deps, c.var.auth, workflow_id), 200);
  });
}
