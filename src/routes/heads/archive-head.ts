import type { OpenAPIHono } from "@hono/zod-openapi";
import { notFound } from "../../errors/api-error";
import { nowIso } from "../../lib/clock";
import type { HonoEnv } from "../../middleware/hono-env";
import { presentWithLatest } from "../../services/presenters/head";
import { alphaRoute } from "../define";
import { type HeadResource, type HeadTypes, pascalNoun, titleOf } from "./resource";
import { ArchiveBodySchema } from "./schemas";

/** POST /{heads}/{id}/archive: a head stays readable but takes no new versions. */
export function registerArchiveHead<T extends HeadTypes>(
  app: OpenAPIHono<HonoEnv>,
  resource: HeadResource<T>,
) {
  const { noun, idParam } = resource;
  const route = alphaRoute(
    { permission: "RUN_WORKFLOWS", errors: [409] },
    {
      method: "post",
      operationId: `archive${pascalNoun(resource.noun.one)}`,
      path: `/${resource.path}/{${idParam}}/archive`,
      tags: [resource.tag],
      summary: `Archive a ${noun.one}`,
      description:
        `Archives the ${noun.one}: it stays readable (with every version) and listed under ` +
        "`status=archived`, but takes no new versions. " +
        `Archiving an archived ${noun.one} changes nothing and answers it again.`,
      request: {
        params: resource.IdParamsSchema,
        body: {
          required: false,
          content: { "application/json": { schema: ArchiveBodySchema } },
        },
      },
      responses: {
        200: {
          description: `The archived ${noun.one}`,
          content: { "application/json": { schema: resource.WithLatestSchema } },
        },
      },
    },
  );
  app.openapi(route, async (c) => {
    const id = c.req.valid("param")[idParam];
    const found = await resource.repo.archive(c.var.deps.db, c.var.auth.workspaceId, id, {
      keyId: c.var.auth.keyId,
      at: nowIso(),
    });
    if (!found) throw notFound(titleOf(resource), id);
    return c.json(presentWithLatest(resource, found), 200);
  });
}
