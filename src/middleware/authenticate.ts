import { createMiddleware } from "hono/factory";
import { ApiError } from "../errors/api-error";
import { bearerToken, verifyKey } from "../services/access/keys";
import type { HonoEnv } from "./hono-env";

/**
 * Authenticates the alpha surface (the spec's Authentication section). The workspace comes from the
 * key alone, so requests naming a tenant, organization or user are refused.
 */
export const authenticate = createMiddleware<HonoEnv>(async (c, next) => {
  const verdict = await verifyKey(c.var.deps.db, bearerToken(c.req.header("authorization")));
  switch (verdict.outcome) {
    case "unauthorized":
      throw new ApiError(
        "unauthorized",
        "A valid API key is required: Authorization: Bearer <key>.",
        {
          headers: { "WWW-Authenticate": 'Bearer realm="api"' },
        },
      );
    case "not-alpha":
      throw new ApiError("resource-not-found", "This key has no access to the alpha API.");
    case "not-opted-in":
      throw new ApiError("forbidden", "The workspace is not opted in to the alpha API.");
    case "valid":
      c.set("auth", verdict.auth);
      c.set("rateLimits", verdict.rateLimits);
      await next();
  }
});
