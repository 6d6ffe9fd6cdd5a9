import type { OpenAPIHono } from "@hono/zod-openapi";
import { nowIso } from "../../lib/clock";
import { newId } from "../../lib/ids";
import type { HonoEnv } from "../../middleware/hono-env";
import { presentWithLatest } from "../../services/presenters/head";
import { alphaRoute } from "../define";
import { type HeadResource, type HeadTypes, pascalNoun } from "./resource";
import { storedName } from "./schemas";

/** POST /{heads}: a new head and its immutable version 1. */
export function registerCreateHead<T extends HeadTypes>(
  app: OpenAPIHono<HonoEnv>,
  resource: HeadResource<T>,
) {
  const { noun } = resource;
  const route = alphaRoute(
    { permission: "RUN_WORKFLOWS", errors: [409] },
    {
      method: "post",
      operationId: `create${pascalNoun(resource.noun.one)}`,
      path: `/${resource.path}`,
      tags: [resource.tag],
      summary: `Create a ${noun.one}`,
      description:
        `Creates ${resource.introduced} and its immutable version 1. A ${noun.one} without ` +
        "a name is anonymous: readable by id, never listed, and it takes no new versions.",
      request: {
        body: {
          required: true,
          content: { "application/json": { schema: resource.CreateBodySchema } },
        },
      },
      responses: {
        201: {
          description: `The ${noun.one} with version 1`,
          content: { "application/json": { schema: resource.WithLatestSchema } },
        },
      },
    },
  );
  app.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const name = storedName(body.name);
    const created = await resource.repo.insert(
      c.var.deps.db,
      {
        id: newId(resource.idPrefix),
        workspaceId: c.var.auth.workspaceId,
        name,
        description: body.description || null,
        anonymous: name === null,
        createdBy: c.var.auth.keyId,
        createdAt: nowIso(),
      },
      resource.contentOf(body),
    );
    return c.json(presentWithLatest(resource, created), 201);
  });
}
