import type { OpenAPIHono } from "@hono/zod-openapi";
import { type ProfileContent, type ProfileVersionRow, profileRepo } from "../../db/repos/profiles";
import type { HonoEnv } from "../../middleware/hono-env";
import {
  type ProfileVersionDto,
  presentProfileVersion,
} from "../../services/presenters/head-versions";
import { registerHeadRoutes } from "../heads";
import type { HeadResource } from "../heads/resource";
import {
  CreateProfileBodySchema,
  ProfileIdParamsSchema,
  ProfilePageSchema,
  type ProfileVersionBody,
  ProfileVersionBodySchema,
  ProfileVersionParamsSchema,
  ProfileVersionSchema,
  ProfileWithLatestSchema,
} from "./schemas";

/** Profiles: versioned heads whose versions hold instructions and answer specs. */
const profiles: HeadResource<{
  idParam: "profile_id";
  body: ProfileVersionBody;
  content: ProfileContent;
  row: ProfileVersionRow;
  version: ProfileVersionDto;
}> = {
  path: "profiles",
  idParam: "profile_id",
  idPrefix: "prof",
  tag: "Profiles",
  noun: { one: "profile", many: "profiles" },
  introduced: "an analysis profile",
  IdParamsSchema: ProfileIdParamsSchema,
  VersionParamsSchema: ProfileVersionParamsSchema,
  CreateBodySchema: CreateProfileBodySchema,
  VersionBodySchema: ProfileVersionBodySchema,
  VersionSchema: ProfileVersionSchema,
  WithLatestSchema: ProfileWithLatestSchema,
  PageSchema: ProfilePageSchema,
  repo: profileRepo,
  contentOf: (body) => ({ instructions: body.instructions, answerSpecs: body.answer_specs }),
  presentVersion: presentProfileVersion,
};

/** Registers the profile routes (the spec's Profiles and report templates section). */
export function registerProfileRoutes(app: OpenAPIHono<HonoEnv>) {
  registerHeadRoutes(app, profiles);
}
