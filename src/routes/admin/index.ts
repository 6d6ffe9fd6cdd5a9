import { OpenAPIHono } from "@hono/zod-openapi";
import { createMiddleware } from "hono/factory";
import { ApiError } from "../../errors/api-error";
import { constantTimeEqualStrings } from "../../lib/crypto";
import type { HonoEnv } from "../../middleware/hono-env";
import { boundJsonDepth } from "../../middleware/json-depth";
import { strictInput } from "../../middleware/strict-input";
import { bearerToken } from "../../services/access/keys";
import { validationHook } from "../validation-hook";
import { registerAuditLog } from "./audit-log";
import { registerDeleteWorkspace } from "./delete-workspace";
import { registerKeyRoutes } from "./keys";
import { registerAdminLists } from "./lists";
import { registerWorkspaceUsage } from "./usage";
import { registerWorkspaceRoutes } from "./workspaces";

/** The operator token guards everything; without one configured the admin API does not exist. */
const adminAuth = createMiddleware<HonoEnv>(async (c, next) => {
  const configured = c.env.ADMIN_TOKEN;
  if (!configured)
    throw new ApiError("resource-not-found", "There is no admin API on this deployment.");
  const token = bearerToken(c.req.header("authorization"));
  if (token === null || !(await constantTimeEqualStrings(token, configured))) {
    throw new ApiError("unauthorized", "The admin token is missing or wrong.", {
      headers: { "WWW-Authenticate": 'Bearer realm="admin"' },
    });
  }
  await next();
});

/** The operator API of the spec's decisions on the admin API, mounted at /admin/v1. */
export function createAdminApp(): OpenAPIHono<HonoEnv> {
  const admin = new OpenAPIHono<HonoEnv>({ defaultHook: validationHook });
  admin.use("*", adminAuth, boundJsonDepth, strictInput);
  registerWorkspaceRoutes(admin);
  registerDeleteWorkspace(admin);
  registerKeyRoutes(admin);
  registerAdminLists(admin);
  registerAuditLog(admin);
  registerWorkspaceUsage(admin);
  admin.doc31("/openapi.json", {
    openapi: "3.1.0",
    info: { title: "Video Analysis Service admin API", version: "v1" },
    servers: [{ url: "/admin/v1" }],
    tags: [{ name: "Admin", description: "Workspaces, API keys, usage and the audit trail." }],
  });
  return admin;
}
