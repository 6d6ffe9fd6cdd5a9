import type { OpenAPIHono } from "@hono/zod-openapi";
import { notFound } from "../../errors/api-error";
import type { HonoEnv } from "../../middleware/hono-env";
import { alphaRoute } from "../define";
import { type HeadResource, type HeadTypes, pascalNoun, titleOf } from "./resource";

/** GET /{heads}/{id}/versions/{version}: one immutable version of a head. */
export function registerGetHeadVersion<T extends HeadTypes>(
  app: OpenAPIHono<HonoEnv>,
  resource: HeadResource<T>,
) {
  const { noun, idParam } = resource;
  const route = alphaRoute(
    { permission: "RUN_WORKFLOWS" },
    {
      method: "get",
      operationId: `get${pascalNoun(resource.noun.one)}Version`,
      path: `/${resource.path}/{${idParam}}/versions/{version}`,
      tags: [resource.tag],
      summary: `Get a ${noun.one} version`,
      description: `One immutable version of a ${noun.one}, archived or not.`,
      request: { params: resource.VersionParamsSchema },
      responses: {
        200: {
          description: "The version",
          content: { "application/json": { schema: resource.VersionSchema } },
        },
      },
    },
  );
  app.openapi(route, async (c) => {
    const params = c.req.valid("param");
    const id = params[idParam];
    const found = await resource.repo.findVersion(
      c.var.deps.db,
      c.var.auth.workspaceId,
      id,
      params.version,
    );
    if (!found) throw notFound(`${titleOf(resource)} version`, `${id}@${params.version}`);
    return c.json(resource.presentVersion(found.version), 200);
  });
}
