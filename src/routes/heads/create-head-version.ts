import type { OpenAPIHono } from "@hono/zod-openapi";
import { nowIso } from "../../lib/clock";
import type { HonoEnv } from "../../middleware/hono-env";
import { alphaRoute } from "../define";
import { type HeadResource, type HeadTypes, pascalNoun, titleOf } from "./resource";
import { versionRefused } from "./schemas";

/** POST /{heads}/{id}/versions: the next immutable version of a head. */
export function registerCreateHeadVersion<T extends HeadTypes>(
  app: OpenAPIHono<HonoEnv>,
  resource: HeadResource<T>,
) {
  const { noun, idParam } = resource;
  const route = alphaRoute(
    { permission: "RUN_WORKFLOWS", errors: [409] },
    {
      method: "post",
      operationId: `create${pascalNoun(resource.noun.one)}Version`,
      path: `/${resource.path}/{${idParam}}/versions`,
      tags: [resource.tag],
      summary: `Add a ${noun.one} version`,
      description:
        "Appends the next immutable version (`latest_version` + 1) and makes it the latest. " +
        `A ${noun.one} holds at most 100 versions; archived and anonymous ${noun.many} take ` +
        "none. These answer 409 `conflict`. Parallel calls get consecutive versions.",
      request: {
        params: resource.IdParamsSchema,
        body: {
          required: true,
          content: { "application/json": { schema: resource.VersionBodySchema } },
        },
      },
      responses: {
        201: {
          description: "The new version",
          content: { "application/json": { schema: resource.VersionSchema } },
        },
      },
    },
  );
  app.openapi(route, async (c) => {
    const id = c.req.valid("param")[idParam];
    const result = await resource.repo.appendVersion(
      c.var.deps.db,
      c.var.auth.workspaceId,
      id,
      resource.contentOf(c.req.valid("json")),
      { keyId: c.var.auth.keyId, at: nowIso() },
    );
    if (result.outcome !== "appended") throw versionRefused(titleOf(resource), id, result.outcome);
    return c.json(resource.presentVersion(result.version), 201);
  });
}
