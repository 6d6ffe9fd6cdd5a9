import type { OpenAPIHono } from "@hono/zod-openapi";
import { database } from "../../db/client";
import { archiveProfile } from "../../db/repos/profiles";
import type { HonoEnv } from "../../env";
import { notFound } from "../../errors/api-error";
import { nowIso } from "../../lib/clock";
import { alphaRoute } from "../define";
import { ArchiveBodySchema } from "./heads";
import {
  ProfileIdParamsSchema,
  ProfileWithLatestSchema,
  presentProfileWithLatest,
} from "./schemas";

const route = alphaRoute(
  { permission: "RUN_WORKFLOWS", idempotent: true, errors: [409] },
  {
    method: "post",
    path: "/profiles/{profile_id}/archive",
    tags: ["Profiles"],
    summary: "Archive a profile",
    description:
      "Archives the profile: it stays readable (with every version) and listed under `status=archived`, but takes no new versions. Archiving an archived profile changes nothing and answers it again.",
    request: {
      params: ProfileIdParamsSchema,
      body: {
        required: false,
        content: { "application/json": { schema: ArchiveBodySchema } },
      },
    },
    responses: {
      200: {
        description: "The archived profile",
        content: { "application/json": { schema: ProfileWithLatestSchema } },
      },
    },
  },
);

/** POST /profiles/{profile_id}/archive */
export function registerArchiveProfile(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { profile_id } = c.req.valid("param");
    const found = await archiveProfile(database(c.env.DB), c.var.auth.workspaceId, profile_id, {
      keyId: c.var.auth.keyId,
      at: nowIso(),
    });
    if (!found) throw notFound("Profile", profile_id);
    return c.json(presentProfileWithLatest(found), 200);
  });
}
