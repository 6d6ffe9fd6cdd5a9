import type { OpenAPIHono } from "@hono/zod-openapi";
import { DEFAULT_RATE_LIMITS, RATE_WINDOW_SECONDS } from "../domain/rate-limits";
import { RATE_LIMIT_DRAFT } from "../lib/rate-limit-fields";
import type { HonoEnv } from "../middleware/hono-env";

const DRAFT_URL = `https://datatracker.ietf.org/doc/html/${RATE_LIMIT_DRAFT}`;

/** The header components of the alpha document, each described once. */
const COMPONENTS = {
  "RateLimit-Policy": {
    description: `The workspace's quota for this operation's class (reads, writes, search or uploads), as ${RATE_LIMIT_DRAFT} writes it (${DRAFT_URL}): q requests per window of w seconds. Every response to an authenticated request carries it, errors included.`,
    required: true,
    schema: { type: "string" as const },
    example: `"reads";q=${DEFAULT_RATE_LIMITS.reads};w=${RATE_WINDOW_SECONDS}`,
  },
  RateLimit: {
    description: `What is left of the quota: r more requests of this class until the window ends in t seconds (${RATE_LIMIT_DRAFT}). Every response to an authenticated request carries it, errors included.`,
    required: true,
    schema: { type: "string" as const },
    example: `"reads";r=${DEFAULT_RATE_LIMITS.reads - 13};t=41`,
  },
  "Retry-After": {
    description: "Seconds until the window ends and requests of this class are counted again.",
    required: true,
    schema: { type: "integer" as const, minimum: 1 },
    example: 41,
  },
};

type HeaderName = keyof typeof COMPONENTS;

function ref(name: HeaderName) {
  return { $ref: `#/components/headers/${name}` };
}

/** Registers the RateLimit header components in the alpha document. */
export function registerRateLimitHeaders(api: OpenAPIHono<HonoEnv>): void {
  for (const [name, header] of Object.entries(COMPONENTS))
    api.openAPIRegistry.registerComponent("headers", name, header);
}

/** The fields every counted response carries. */
export const RATE_LIMIT_HEADERS = {
  "RateLimit-Policy": ref("RateLimit-Policy"),
  RateLimit: ref("RateLimit"),
};

/** The fields of a 429: the same, and when to try again. */
export const RATE_LIMITED_HEADERS = { ...RATE_LIMIT_HEADERS, "Retry-After": ref("Retry-After") };
