import type { OpenAPIHono } from "@hono/zod-openapi";
import { database } from "../../db/client";
import { listProfiles } from "../../db/repos/profiles";
import type { HonoEnv } from "../../env";
import { pageQuery, toPage } from "../../lib/pagination";
import { pageSchema } from "../../schemas/page";
import { signingSecret } from "../../services/secrets";
import { alphaRoute } from "../define";
import { ListHeadsQuerySchema } from "./heads";
import { ProfileSchema, presentProfile } from "./schemas";

const route = alphaRoute(
  { permission: "RUN_WORKFLOWS" },
  {
    method: "get",
    path: "/profiles",
    tags: ["Profiles"],
    summary: "List profiles",
    description:
      "The workspace's named profiles, newest first: active ones unless `status=archived`. Anonymous profiles are not listed; read them by id.",
    request: { query: ListHeadsQuerySchema },
    responses: {
      200: {
        description: "A page of profile heads",
        content: { "application/json": { schema: pageSchema(ProfileSchema, "ProfilePage") } },
      },
    },
  },
);

/** GET /profiles */
export function registerListProfiles(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const { workspaceId } = c.var.auth;
    const list = {
      secret: signingSecret(c.env),
      scope: `profiles|${workspaceId}|${query.status}`,
    };
    const page = await pageQuery(list, query);
    const rows = await listProfiles(database(c.env.DB), workspaceId, query.status, page);
    return c.json(await toPage(list, rows, page.limit, (row) => [row.id], presentProfile), 200);
  });
}
