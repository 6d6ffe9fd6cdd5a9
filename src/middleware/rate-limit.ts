import { createMiddleware } from "hono/factory";
import { API_PREFIX } from "../api-prefix";
import { RATE_WINDOW_SECONDS, type RateClass } from "../domain/rate-limits";
import type { Env } from "../env";
import { ApiError } from "../errors/api-error";
import { operationClass, rateLimitFields } from "../lib/rate-limit-fields";
import type { WindowDecision } from "../lib/rate-limit-windows";
import type { HonoEnv } from "./hono-env";

/** Counts one request of a workspace in a class against its quota. */
export interface WorkspaceLimiter {
  take(env: Env, workspaceId: string, rateClass: RateClass, limit: number): Promise<WindowDecision>;
}

/** The deployment's limiter: the workspace's `WorkspaceRateLimiter` object, locally too. */
export const objectLimiter: WorkspaceLimiter = {
  take: (env, workspaceId, rateClass, limit) =>
    env.RATE_LIMITER.getByName(workspaceId).take(rateClass, limit),
};

/** Whether the platform refused the call because the object is overloaded (a flood). */
function overloaded(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    "overloaded" in error &&
    error.overloaded === true
  );
}

/**
 * Counts every authenticated request of the alpha surface in its workspace's quota for the
 * operation's class and answers 429 past it. Every response it lets through carries
 * `RateLimit-Policy` and `RateLimit`, whatever its status. A limiter that fails lets the
 * request through without the fields (the API stays up when counting does not), except an
 * object too busy to answer, which means the workspace is flooding it.
 */
export function rateLimit(limiter: WorkspaceLimiter) {
  return createMiddleware<HonoEnv>(async (c, next) => {
    const rateClass = operationClass(c.req.method, c.req.path.slice(API_PREFIX.length));
    const limit = c.var.rateLimits[rateClass];
    let decision: WindowDecision;
    try {
      decision = await limiter.take(c.env, c.var.auth.workspaceId, rateClass, limit);
    } catch (error) {
      if (overloaded(error)) {
        const detail = `Too many ${rateClass} requests at once; retry in 1 s.`;
        throw new ApiError("rate-limited", detail, { headers: { "Retry-After": "1" } });
      }
      c.var.log.error({ error: `rate limiter: ${String(error)}` });
      return next();
    }
    const fields = rateLimitFields(rateClass, limit, RATE_WINDOW_SECONDS, decision);
    if (!decision.allowed) {
      throw new ApiError(
        "rate-limited",
        `This workspace has used its ${limit} ${rateClass} requests of this ${RATE_WINDOW_SECONDS} s window; retry in ${decision.resetSeconds} s.`,
        { headers: { ...fields, "Retry-After": String(decision.resetSeconds) } },
      );
    }
    await next();
    for (const [name, value] of Object.entries(fields)) c.res.headers.set(name, value);
  });
}
