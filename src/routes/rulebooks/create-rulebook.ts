import type { OpenAPIHono } from "@hono/zod-openapi";
import type { HonoEnv } from "../../middleware/hono-env";
import { createRulebooks } from "../../services/rulebooks/rulebooks";
import { alphaRoute } from "../define";
import { CreateRulebookBodySchema, RulebookSchema } from "./schemas";

const route = alphaRoute(
  { permission: "MANAGE_RULEBOOKS" },
  {
    method: "post",
    path: "/rulebooks",
    operationId: "createRulebook",
    tags: ["Rulebooks"],
    summary: "Create a rulebook",
    description:
      "Creates a rulebook owned by the owner the key acts for (other keys of the workspace do not see it unless they act for the same owner). Every rule gets version 1; rule ids must be unique (a repeat answers 400 naming it).",
    request: {
      body: {
        required: true,
        content: { "application/json": { schema: CreateRulebookBodySchema } },
      },
    },
    responses: {
      201: {
        description: "The rulebook",
        content: { "application/json": { schema: RulebookSchema } },
      },
    },
  },
);

/** POST /rulebooks */
export function registerCreateRulebook(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const [created] = await createRulebooks(c.var.deps, c.var.auth, [body]);
    if (!created) throw new Error("creating one rulebook presented none");
    return c.json(created, 201);
  });
}
