import { createMiddleware } from "hono/factory";
import type { Permission } from "../domain/caller";
import { ApiError } from "../errors/api-error";
import type { HonoEnv } from "./hono-env";

/** Answers 403 unless the key holds the route's permission. */
export function requirePermission(permission: Permission) {
  return createMiddleware<HonoEnv>(async (c, next) => {
    if (!c.var.auth.permissions.has(permission)) {
      throw new ApiError("forbidden", `This operation needs the ${permission} permission.`);
    }
    await next();
  });
}
