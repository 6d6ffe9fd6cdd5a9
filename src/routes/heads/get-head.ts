import type { OpenAPIHono } from "@hono/zod-openapi";
import { notFound } from "../../errors/api-error";
import type { HonoEnv } from "../../middleware/hono-env";
import { presentWithLatest } from "../../services/presenters/head";
import { alphaRoute } from "../define";
import { type HeadResource, type HeadTypes, pascalNoun, titleOf } from "./resource";

/** GET /{heads}/{id}: a head with its latest version. */
export function registerGetHead<T extends HeadTypes>(
  app: OpenAPIHono<HonoEnv>,
  resource: HeadResource<T>,
) {
  const { noun, idParam } = resource;
  const route = alphaRoute(
    { permission: "RUN_WORKFLOWS" },
    {
      method: "get",
      operationId: `get${pascalNoun(resource.noun.one)}`,
      path: `/${resource.path}/{${idParam}}`,
      tags: [resource.tag],
      summary: `Get a ${noun.one}`,
      description:
        `The ${noun.one} head with its lifecycle state and its latest version in full. ` +
        `Archived and anonymous ${noun.many} remain readable.`,
      request: { params: resource.IdParamsSchema },
      responses: {
        200: {
          description: `The ${noun.one} with its latest version`,
          content: { "application/json": { schema: resource.WithLatestSchema } },
        },
      },
    },
  );
  app.openapi(route, async (c) => {
    const id = c.req.valid("param")[idParam];
    const found = await resource.repo.findWithLatest(c.var.deps.db, c.var.auth.workspaceId, id);
    if (!found) throw notFound(titleOf(resource), id);
    return c.json(presentWithLatest(resource, found), 200);
  });
}
