import type { OpenAPIHono } from "@hono/zod-openapi";
import { listVisibleRulebooks } from "../../db/repos/rulebooks";
import { listScope, pageQuery, toPage } from "../../lib/pagination";
import type { HonoEnv } from "../../middleware/hono-env";
import { PageQuerySchema, pageSchema } from "../../schemas/page";
import { presentRulebooks } from "../../services/presenters/rulebook";
import { viewerOf } from "../../services/rulebooks/rulebooks";
import { alphaRoute } from "../define";
import { RulebookSchema } from "./schemas";

const route = alphaRoute(
  { permission: "MANAGE_RULEBOOKS" },
  {
    method: "get",
    path: "/rulebooks",
    operationId: "listRulebooks",
    tags: ["Rulebooks"],
    summary: "List rulebooks",
    description:
      "The rulebooks of the owner the key acts for plus the shared templates, most recently updated first (ties by id). A rulebook changed while you page moves to the front, so a walk may miss or repeat it.",
    request: { query: PageQuerySchema },
    responses: {
      200: {
        description: "A page of rulebooks",
        content: { "application/json": { schema: pageSchema(RulebookSchema, "RulebookPage") } },
      },
    },
  },
);

/** GET /rulebooks */
export function registerListRulebooks(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const viewer = viewerOf(c.var.auth);
    const list = listScope(
      c.var.deps.secrets.signing(),
      "rulebooks",
      viewer.workspaceId,
      viewer.ownerId,
    );
    const page = await pageQuery(list, query);
    const rows = await listVisibleRulebooks(c.var.deps.db, viewer, page);
    const items = await presentRulebooks(c.var.deps, c.var.auth, rows.slice(0, page.limit));
    const byId = new Map(items.map((item) => [item.id, item]));
    return c.json(
      await toPage(
        list,
        rows,
        page.limit,
        (row) => [row.updatedAt, row.id],
        (row) => {
          const item = byId.get(row.id);
          if (!item) throw new Error(`rulebook ${row.id} was not presented`);
          return item;
        },
      ),
      200,
    );
  });
}
