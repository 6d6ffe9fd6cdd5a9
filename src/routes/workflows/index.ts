import type { OpenAPIHono } from "@hono/zod-openapi";
import type { HonoEnv } from "../../middleware/hono-env";
import { registerCreateWorkflow } from "./create-workflow";
import { registerGetWorkflow } from "./get-workflow";
import { registerListWorkflows } from "./list-workflows";

/** Registers the workflow routes (permission MANAGE_RULEBOOKS, the spec's Workflows section). */
export function registerWorkflowRoutes(app: OpenAPIHono<HonoEnv>) {
  registerListWorkflows(app);
  registerCreateWorkflow(app);
  registerGetWorkflow(app);
}
