import type { OpenAPIHono } from "@hono/zod-openapi";
import { database } from "../../db/client";
import { appendProfileVersion } from "../../db/repos/profiles";
import type { HonoEnv } from "../../env";
import { nowIso } from "../../lib/clock";
import { alphaRoute } from "../define";
import { versionRefused } from "./heads";
import {
  ProfileIdParamsSchema,
  ProfileVersionBodySchema,
  ProfileVersionSchema,
  presentProfileVersion,
} from "./schemas";

const route = alphaRoute(
  { permission: "RUN_WORKFLOWS", idempotent: true, errors: [409] },
  {
    method: "post",
    path: "/profiles/{profile_id}/versions",
    tags: ["Profiles"],
    summary: "Add a profile version",
    description:
      "Appends the next immutable version (`latest_version` + 1) and makes it the latest. A profile holds at most 100 versions; archived and anonymous profiles take none. These answer 409 `conflict`. Parallel calls get consecutive versions.",
    request: {
      params: ProfileIdParamsSchema,
      body: {
        required: true,
        content: { "application/json": { schema: ProfileVersionBodySchema } },
      },
    },
    responses: {
      201: {
        description: "The new version",
        content: { "application/json": { schema: ProfileVersionSchema } },
      },
    },
  },
);

/** POST /profiles/{profile_id}/versions */
export function registerCreateProfileVersion(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { profile_id } = c.req.valid("param");
    const body = c.req.valid("json");
    const result = await appendProfileVersion(
      database(c.env.DB),
      c.var.auth.workspaceId,
      profile_id,
      { instructions: body.instructions, answerSpecs: body.answer_specs },
      { keyId: c.var.auth.keyId, at: nowIso() },
    );
    if (result.outcome !== "appended") throw versionRefused("Profile", profile_id, result.outcome);
    return c.json(presentProfileVersion(result.version), 201);
  });
}
