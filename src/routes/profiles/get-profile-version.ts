import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { database } from "../../db/client";
import { findProfileVersion } from "../../db/repos/profiles";
import type { HonoEnv } from "../../env";
import { notFound } from "../../errors/api-error";
import { alphaRoute } from "../define";
import { VersionParamSchema } from "./heads";
import { ProfileIdParamsSchema, ProfileVersionSchema, presentProfileVersion } from "./schemas";

const route = alphaRoute(
  { permission: "RUN_WORKFLOWS" },
  {
    method: "get",
    path: "/profiles/{profile_id}/versions/{version}",
    tags: ["Profiles"],
    summary: "Get a profile version",
    description: "One immutable version of a profile, archived or not.",
    request: {
      params: z.object({ ...ProfileIdParamsSchema.shape, version: VersionParamSchema }),
    },
    responses: {
      200: {
        description: "The version",
        content: { "application/json": { schema: ProfileVersionSchema } },
      },
    },
  },
);

/** GET /profiles/{profile_id}/versions/{version} */
export function registerGetProfileVersion(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { profile_id, version } = c.req.valid("param");
    const row = await findProfileVersion(
      database(c.env.DB),
      c.var.auth.workspaceId,
      profile_id,
      version,
    );
    if (!row) throw notFound("Profile version", `${profile_id}@${version}`);
    return c.json(presentProfileVersion(row), 200);
  });
}
