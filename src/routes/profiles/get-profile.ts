import type { OpenAPIHono } from "@hono/zod-openapi";
import { database } from "../../db/client";
import { findProfileWithLatest } from "../../db/repos/profiles";
import type { HonoEnv } from "../../env";
import { notFound } from "../../errors/api-error";
import { alphaRoute } from "../define";
import {
  ProfileIdParamsSchema,
  ProfileWithLatestSchema,
  presentProfileWithLatest,
} from "./schemas";

const route = alphaRoute(
  { permission: "RUN_WORKFLOWS" },
  {
    method: "get",
    path: "/profiles/{profile_id}",
    tags: ["Profiles"],
    summary: "Get a profile",
    description:
      "The profile head with its lifecycle state and its latest version in full. Archived and anonymous profiles remain readable.",
    request: { params: ProfileIdParamsSchema },
    responses: {
      200: {
        description: "The profile with its latest version",
        content: { "application/json": { schema: ProfileWithLatestSchema } },
      },
    },
  },
);

/** GET /profiles/{profile_id} */
export function registerGetProfile(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { profile_id } = c.req.valid("param");
    const found = await findProfileWithLatest(
      database(c.env.DB),
      c.var.auth.workspaceId,
      profile_id,
    );
    if (!found) throw notFound("Profile", profile_id);
    return c.json(presentProfileWithLatest(found), 200);
  });
}
