import type { OpenAPIHono } from "@hono/zod-openapi";
import type { HonoEnv } from "../../env";
import { registerArchiveProfile } from "./archive-profile";
import { registerCreateProfile } from "./create-profile";
import { registerCreateProfileVersion } from "./create-profile-version";
import { registerGetProfile } from "./get-profile";
import { registerGetProfileVersion } from "./get-profile-version";
import { registerListProfiles } from "./list-profiles";

/** Registers the profile routes (spec section 4.4). */
export function registerProfileRoutes(app: OpenAPIHono<HonoEnv>) {
  registerCreateProfile(app);
  registerListProfiles(app);
  registerGetProfile(app);
  registerCreateProfileVersion(app);
  registerGetProfileVersion(app);
  registerArchiveProfile(app);
}
