import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { findWorkspace, listApiKeys, listWorkspaces } from "../../db/repos/workspaces";
import { notFound } from "../../errors/api-error";
import { listScope, pageQuery, toPage } from "../../lib/pagination";
import type { HonoEnv } from "../../middleware/hono-env";
import { PageQuerySchema, pageSchema } from "../../schemas/page";
import { presentKey, presentWorkspace } from "../../services/presenters/admin";
import { problemResponses } from "../define";
import { ApiKeySchema, WorkspaceSchema } from "./schemas";

const listWorkspacesRoute = createRoute({
  method: "get",
  operationId: "listWorkspaces",
  path: "/workspaces",
  tags: ["Admin"],
  summary: "List workspaces",
  description: "Every workspace, newest first.",
  request: { query: PageQuerySchema },
  responses: {
    200: {
      description: "A page of workspaces",
      content: {
        "application/json": { schema: pageSchema(WorkspaceSchema, "AdminWorkspacePage") },
      },
    },
    ...problemResponses([400, 401]),
  },
});

const listKeysRoute = createRoute({
  method: "get",
  operationId: "listKeys",
  path: "/keys",
  tags: ["Admin"],
  summary: "List the API keys of a workspace",
  description:
    "The workspace's keys, newest first, revoked and expired ones included. Secrets are never shown again.",
  request: {
    query: PageQuerySchema.extend({
      workspace_id: z.string().min(1).openapi({
        description: "The workspace whose keys to list",
        example: "ws_01jd3m6t8y0c7x4k2n9q5r1s3v",
      }),
    }),
  },
  responses: {
    200: {
      description: "A page of keys, without secrets",
      content: { "application/json": { schema: pageSchema(ApiKeySchema, "AdminApiKeyPage") } },
    },
    ...problemResponses([400, 401, 404]),
  },
});

/** GET /admin/v1/workspaces and GET /admin/v1/keys?workspace_id=, paged like the alpha lists. */
export function registerAdminLists(app: OpenAPIHono<HonoEnv>) {
  app.openapi(listWorkspacesRoute, async (c) => {
    const query = c.req.valid("query");
    const list = listScope(c.var.deps.secrets.signing(), "admin-workspaces");
    const page = await pageQuery(list, query);
    const rows = await listWorkspaces(c.var.deps.db, page);
    return c.json(await toPage(list, rows, page.limit, (row) => [row.id], presentWorkspace), 200);
  });

  app.openapi(listKeysRoute, async (c) => {
    const query = c.req.valid("query");
    const { db } = c.var.deps;
    const list = listScope(c.var.deps.secrets.signing(), "admin-keys", query.workspace_id);
    const page = await pageQuery(list, query);
    if (!(await findWorkspace(db, query.workspace_id)))
      throw notFound("Workspace", query.workspace_id);
    const rows = await listApiKeys(db, query.workspace_id, page);
    return c.json(await toPage(list, rows, page.limit, (row) => [row.id], presentKey), 200);
  });
}
