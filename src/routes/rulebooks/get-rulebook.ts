import type { OpenAPIHono } from "@hono/zod-openapi";
import type { HonoEnv } from "../../middleware/hono-env";
import { presentRulebooks } from "../../services/presenters/rulebook";
import { visibleRulebook } from "../../services/rulebooks/rulebooks";
import { alphaRoute } from "../define";
import { RulebookParamsSchema, RulebookSchema } from "./schemas";

const route = alphaRoute(
  { permission: "MANAGE_RULEBOOKS" },
  {
    method: "get",
    path: "/rulebooks/{rulebook_id}",
    operationId: "getRulebook",
    tags: ["Rulebooks"],
    summary: "Get a rulebook",
    description:
      "One rulebook of the key's owner, or a shared template. A rulebook of another owner (also in the same workspace) or another workspace answers 404, as does a deleted one.",
    request: { params: RulebookParamsSchema },
    responses: {
      200: {
        description: "The rulebook",
        content: { "application/json": { schema: RulebookSchema } },
      },
    },
  },
);

/** GET /rulebooks/{rulebook_id} */
export function registerGetRulebook(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { rulebook_id } = c.req.valid("param");
    const row = await visibleRulebook(c.var.deps, c.var.auth, rulebook_id);
    const [resource] = await presentRulebooks(c.var.deps, c.var.auth, [row]);
    if (!resource) throw new Error("presenting one rulebook gave none");
    return c.json(resource, 200);
  });
}
