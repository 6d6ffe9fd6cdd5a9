import type { OpenAPIHono } from "@hono/zod-openapi";
import type { HonoEnv } from "../../middleware/hono-env";
import { updateRulebook } from "../../services/rulebooks/rulebooks";
import { alphaRoute } from "../define";
import { RulebookParamsSchema, RulebookSchema, UpdateRulebookBodySchema } from "./schemas";

const route = alphaRoute(
  { permission: "MANAGE_RULEBOOKS", errors: [409] },
  {
    method: "patch",
    path: "/rulebooks/{rulebook_id}",
    operationId: "updateRulebook",
    tags: ["Rulebooks"],
    summary: "Change a rulebook",
    description:
      "Changes the name, the content or the rules (`rules` replaces the whole list). Each rule keeps its version while its title and description stay the same and gets the next version when either changes; a rule id seen before continues its numbering. Changed rules make a new immutable rule set (`rule_set_version_id`); workflows and runs keep the set they were made with. Shared templates answer 403; a rulebook of another owner answers 404.",
    request: {
      params: RulebookParamsSchema,
      body: {
        required: true,
        content: { "application/json": { schema: UpdateRulebookBodySchema } },
      },
    },
    responses: {
      200: {
        description: "The changed rulebook",
        content: { "application/json": { schema: RulebookSchema } },
      },
    },
  },
);

/** PATCH /rulebooks/{rulebook_id} */
export function registerUpdateRulebook(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { rulebook_id } = c.req.valid("param");
    const resource = await updateRulebook(c.var.deps, c.var.auth, rulebook_id, c.req.valid("json"));
    return c.json(resource, 200);
  });
}
