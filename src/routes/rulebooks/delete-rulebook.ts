import type { OpenAPIHono } from "@hono/zod-openapi";
import type { HonoEnv } from "../../middleware/hono-env";
import { deleteRulebook } from "../../services/rulebooks/rulebooks";
import { byKey } from "../audited-by";
import { alphaRoute } from "../define";
import { RulebookParamsSchema } from "./schemas";

const route = alphaRoute(
  { permission: "MANAGE_RULEBOOKS", errors: [409] },
  {
    method: "delete",
    path: "/rulebooks/{rulebook_id}",
    operationId: "deleteRulebook",
    tags: ["Rulebooks"],
    summary: "Delete a rulebook",
    description:
      "Deletes a rulebook of the key's owner: it is no longer listed or readable (404). Workflows and runs made with it keep their frozen rule set. A workflow run on it that is queued or processing answers 409; shared templates answer 403.",
    request: { params: RulebookParamsSchema },
    responses: { 204: { description: "Deleted" } },
  },
);

/** DELETE /rulebooks/{rulebook_id} */
export function registerDeleteRulebook(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { rulebook_id } = c.req.valid("param");
    await deleteRulebook(c.var.deps, c.var.auth, rulebook_id, byKey(c));
    return c.body(null, 204);
  });
}
