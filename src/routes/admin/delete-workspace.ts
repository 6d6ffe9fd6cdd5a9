import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { HonoEnv } from "../../middleware/hono-env";
import { idParam } from "../../schemas/common";
import { deleteWorkspace } from "../../services/deletion/delete-workspace";
import { presentWorkspaceDeletion } from "../../services/presenters/admin";
import { byOperator } from "../audited-by";
import { problemResponses } from "../define";
import { WorkspaceDeletionSchema } from "./schemas";

const deleteWorkspaceRoute = createRoute({
  method: "delete",
  operationId: "deleteWorkspace",
  path: "/workspaces/{id}",
  tags: ["Admin"],
  summary: "Delete a workspace and everything in it",
  description:
    "From the answer on, the workspace's API keys answer 401, it is no longer listed or changed (404), its webhooks send nothing and its runs in flight are stopped. Everything it holds (keys, videos with their bytes, indexes and vectors, runs, answers, findings, reports, profiles, report templates, rulebooks, CSV imports, workflows, webhook endpoints and deliveries, events) is then erased in the background, and last the workspace itself. A repeated call answers the same deletion while erasure runs, and 404 once it has completed. It cannot be undone.",
  request: { params: z.object({ id: idParam("id", "ws_01jd3m6t8y0c7x4k2n9q5r1s3v") }) },
  responses: {
    202: {
      description: "The deletion, accepted; erasure runs in the background",
      content: { "application/json": { schema: WorkspaceDeletionSchema } },
    },
    ...problemResponses([401, 404]),
  },
});

/** DELETE /admin/v1/workspaces/{id}. */
export function registerDeleteWorkspace(app: OpenAPIHono<HonoEnv>) {
  app.openapi(deleteWorkspaceRoute, async (c) => {
    const { id } = c.req.valid("param");
    const row = await deleteWorkspace(c.var.deps, id, byOperator(c));
    return c.json(presentWorkspaceDeletion(row), 202);
  });
}
