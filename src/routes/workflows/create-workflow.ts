import type { OpenAPIHono } from "@hono/zod-openapi";
import type { HonoEnv } from "../../middleware/hono-env";
import { createWorkflow } from "../../services/workflows/workflows";
import { alphaRoute } from "../define";
import { CreateWorkflowBodySchema, WorkflowSchema } from "./schemas";

const route = alphaRoute(
  { permission: "MANAGE_RULEBOOKS", errors: [409] },
  {
    method: "post",
    path: "/workflows",
    operationId: "createWorkflow",
    tags: ["Workflows"],
    summary: "Create a workflow",
    description:
      "Binds a rulebook (of the key's owner, or a shared template) to completed videos of the workspace. The rulebook's current rule set is frozen into the workflow (`rule_set_version_id`). A `rulebook_id` or `source_ids` entry that cannot be reached answers 404; a video that is not completed 409. Pass the id as `workflow_id` to `POST /runs`. Workflows belong to the workspace: every key of it with MANAGE_RULEBOOKS can read them.",
    request: {
      body: {
        required: true,
        content: { "application/json": { schema: CreateWorkflowBodySchema } },
      },
    },
    responses: {
      201: {
        description: "The workflow",
        content: { "application/json": { schema: WorkflowSchema } },
      },
    },
  },
);

/** POST /workflows */
export function registerCreateWorkflow(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    return c.json(await createWorkflow(c.var.deps, c.var.auth, c.req.valid("json")), 201);
  });
}
