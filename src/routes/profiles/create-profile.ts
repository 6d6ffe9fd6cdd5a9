import type { OpenAPIHono } from "@hono/zod-openapi";
import { database } from "../../db/client";
import { insertProfile } from "../../db/repos/profiles";
import type { HonoEnv } from "../../env";
import { nowIso } from "../../lib/clock";
import { newId } from "../../lib/ids";
import { alphaRoute } from "../define";
import { storedName } from "./heads";
import {
  CreateProfileBodySchema,
  ProfileWithLatestSchema,
  presentProfileWithLatest,
} from "./schemas";

const route = alphaRoute(
  { permission: "RUN_WORKFLOWS", idempotent: true, errors: [409] },
  {
    method: "post",
    path: "/profiles",
    tags: ["Profiles"],
    summary: "Create a profile",
    description:
      "Creates an analysis profile and its immutable version 1. A profile without a name is anonymous: readable by id, never listed, and it takes no new versions.",
    request: {
      body: {
        required: true,
        content: { "application/json": { schema: CreateProfileBodySchema } },
      },
    },
    responses: {
      201: {
        description: "The profile with version 1",
        content: { "application/json": { schema: ProfileWithLatestSchema } },
      },
    },
  },
);

/** POST /profiles */
export function registerCreateProfile(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const name = storedName(body.name);
    const created = await insertProfile(
      database(c.env.DB),
      {
        id: newId("prof"),
        workspaceId: c.var.auth.workspaceId,
        name,
        description: body.description || null,
        anonymous: name === null,
        createdBy: c.var.auth.keyId,
        createdAt: nowIso(),
      },
      { instructions: body.instructions, answerSpecs: body.answer_specs },
    );
    return c.json(presentProfileWithLatest(created), 201);
  });
}
