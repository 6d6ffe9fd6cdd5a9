import { createRoute, type RouteConfig, z } from "@hono/zod-openapi";
import type { Permission } from "../domain/caller";
import { codesForStatus, ERROR_CODES, type ErrorCode } from "../errors/codes";
import { operationClass } from "../lib/rate-limit-fields";
import { IDEMPOTENCY_KEY_MAX, idempotency } from "../middleware/idempotency";
import { requirePermission } from "../middleware/require-permission";
import { ProblemSchema } from "../schemas/problem";
import { RATE_LIMIT_HEADERS, RATE_LIMITED_HEADERS } from "./rate-limit-headers";

/**
 * Every alpha route may answer these, whatever it does: 400 (strict query and tenant
 * checks run everywhere), 401/403 (keys), 404 (standard keys, unknown ids), 429 (the
 * workspace's rate limit), 500. A 405 answers methods no operation declares, so no operation
 * lists it.
 */
const BASE_ERROR_STATUSES = [400, 401, 403, 404, 429, 500] as const;
/** Routes that read a JSON body may also refuse its size or media type. */
const BODY_ERROR_STATUSES = [413, 415] as const;
const IDEMPOTENT_ERROR_STATUSES = [409, 422] as const;

/** The documented problem responses for a set of statuses, built from the error table. */
export function problemResponses(statuses: readonly number[]) {
  const responses: Record<
    string,
    { description: string; content: Record<string, { schema: typeof ProblemSchema }> }
  > = {};
  for (const status of new Set(statuses)) {
    const codes: ErrorCode[] = codesForStatus(status);
    responses[String(status)] = {
      description: codes.map((code) => `\`${code}\`: ${ERROR_CODES[code].title}`).join("; "),
      content: { "application/problem+json": { schema: ProblemSchema } },
    };
  }
  return responses;
}

/** Documents the RateLimit fields on every success and on the 429 (with Retry-After). */
function withRateLimitHeaders(responses: RouteConfig["responses"]): RouteConfig["responses"] {
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => {
      // A shared response component ($ref) or headers declared by a schema are left as they are.
      if ("$ref" in response) return [status, response];
      if (status === "429") return [status, { ...response, headers: RATE_LIMITED_HEADERS }];
      if (!status.startsWith("2") || response.headers instanceof z.ZodObject)
        return [status, response];
      return [status, { ...response, headers: { ...RATE_LIMIT_HEADERS, ...response.headers } }];
    }),
  );
}

/** The Idempotency-Key header of the spec's Endpoints section. */
export const IdempotencyHeaderSchema = z.object({
  // Documentation only: the idempotency middleware reads and checks the header itself.
  "Idempotency-Key": z.string().min(1).max(IDEMPOTENCY_KEY_MAX).optional().openapi({
    description:
      "Makes the request safe to retry for 24 hours: the same key and request replays the first response (header Idempotent-Replayed: true); the same key with a different request answers 422.",
    example: "8e0f6c1a-5b7e-4a43-9f3e-7a5d2a1c9b10",
  }),
});

interface AlphaRouteOptions {
  permission: Permission;
  /** Honours Idempotency-Key on a method other than POST (every POST does). */
  idempotent?: true;
  /** Further statuses this route can answer with (409, 410, ...). */
  errors?: readonly number[];
}

/** A route as the alpha surface declares it: client generators name methods by operationId. */
export type AlphaRouteConfig = RouteConfig & { operationId: string };

/**
 * Declares an alpha route: bearer security, the permission check, idempotency on every
 * POST, and problem responses from the error table for what it can answer.
 */
export function alphaRoute<const R extends AlphaRouteConfig>(
  options: AlphaRouteOptions,
  route: R,
): R {
  // Every POST, with no way to opt out: a POST added later cannot forget it (the spec's Endpoints
  // section).
  const idempotent = route.method === "post" || options.idempotent === true;
  // From the method and path, as the rate limit middleware counts the request.
  const rateClass = operationClass(route.method, route.path);
  const statuses = [
    ...BASE_ERROR_STATUSES,
    ...(route.request?.body ? BODY_ERROR_STATUSES : []),
    ...(idempotent ? IDEMPOTENT_ERROR_STATUSES : []),
    ...(options.errors ?? []),
  ];
  const config: RouteConfig = {
    ...route,
    security: [{ bearerAuth: [] }],
    middleware: [requirePermission(options.permission), ...(idempotent ? [idempotency] : [])],
    request: idempotent ? { ...route.request, headers: IdempotencyHeaderSchema } : route.request,
    responses: withRateLimitHeaders({ ...problemResponses(statuses), ...route.responses }),
    description:
      `${route.description ?? ""}\n\nPermission: \`${options.permission}\`. Rate limit class: \`${rateClass}\`.`.trim(),
    "x-required-permission": options.permission,
    "x-rate-limit-class": rateClass,
  };
  // Handlers are typed by the caller's route: the added middleware needs the app's own
  // env, the added header is read only by the middleware, errors are thrown not returned.
  return createRoute(config) as unknown as R;
}
