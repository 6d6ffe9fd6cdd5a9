import type { OpenAPIHono } from "@hono/zod-openapi";
import { listScope, pageQuery, toPage } from "../../lib/pagination";
import type { HonoEnv } from "../../middleware/hono-env";
import { presentHead } from "../../services/presenters/head";
import { alphaRoute } from "../define";
import { type HeadResource, type HeadTypes, pascalNoun } from "./resource";
import { ListHeadsQuerySchema } from "./schemas";

/** GET /{heads}: a page of the workspace's named heads in one status. */
export function registerListHeads<T extends HeadTypes>(
  app: OpenAPIHono<HonoEnv>,
  resource: HeadResource<T>,
) {
  const { noun } = resource;
  const route = alphaRoute(
    { permission: "RUN_WORKFLOWS" },
    {
      method: "get",
      operationId: `list${pascalNoun(resource.noun.many)}`,
      path: `/${resource.path}`,
      tags: [resource.tag],
      summary: `List ${noun.many}`,
      description:
        `The workspace's named ${noun.many}, newest first: active ones unless ` +
        `\`status=archived\`. Anonymous ${noun.many} are not listed; read them by id.`,
      request: { query: ListHeadsQuerySchema },
      responses: {
        200: {
          description: `A page of ${noun.one} heads`,
          content: { "application/json": { schema: resource.PageSchema } },
        },
      },
    },
  );
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const { workspaceId } = c.var.auth;
    const list = listScope(c.var.deps.secrets.signing(), resource.path, workspaceId, query.status);
    const page = await pageQuery(list, query);
    const rows = await resource.repo.list(c.var.deps.db, workspaceId, query.status, page);
    return c.json(await toPage(list, rows, page.limit, (row) => [row.id], presentHead), 200);
  });
}
