import type { OpenAPIHono } from "@hono/zod-openapi";
import type { HonoEnv } from "../../middleware/hono-env";
import { registerArchiveHead } from "./archive-head";
import { registerCreateHead } from "./create-head";
import { registerCreateHeadVersion } from "./create-head-version";
import { registerGetHead } from "./get-head";
import { registerGetHeadVersion } from "./get-head-version";
import { registerListHeads } from "./list-heads";
import type { HeadResource, HeadTypes } from "./resource";

/**
 * Registers the six operations of a versioned-head resource (the spec's Profile and report template
 * heads and Profiles and report templates sections).
 */
export function registerHeadRoutes<T extends HeadTypes>(
  app: OpenAPIHono<HonoEnv>,
  resource: HeadResource<T>,
) {
  registerCreateHead(app, resource);
  registerListHeads(app, resource);
  registerGetHead(app, resource);
  registerCreateHeadVersion(app, resource);
  registerGetHeadVersion(app, resource);
  registerArchiveHead(app, resource);
}
