/**
 * The operation classes a workspace's requests are counted in (docs/decisions/rate-limits.md):
 * each has its own quota, so a flood of searches never holds back reading.
 */
export const RATE_CLASSES = ["reads", "writes", "search", "uploads"] as const;

/** One operation class. */
export type RateClass = (typeof RATE_CLASSES)[number];

/** Every quota is counted over a window of this many seconds. */
export const RATE_WINDOW_SECONDS = 60;

/**
 * Requests per window and class a workspace gets unless the operator set its own. Generous
 * on purpose: they stop a runaway loop, not a busy integration (docs/api-overview.md, "Rate
 * limits").
 */
export const DEFAULT_RATE_LIMITS: Readonly<Record<RateClass, number>> = {
  reads: 6000,
  writes: 1200,
  search: 1200,
  uploads: 1200,
};

/** The range an operator's override may take, per class and window. */
export const RATE_LIMIT_RANGE = { min: 1, max: 1_000_000 } as const;

/** A workspace's own quotas; a class left out takes its default. */
export type RateLimitOverrides = Partial<Record<RateClass, number>>;

/** The quota of every class for a workspace with these overrides. */
export function effectiveRateLimits(
  overrides: RateLimitOverrides | null | undefined,
): Record<RateClass, number> {
  const limits = { ...DEFAULT_RATE_LIMITS };
  for (const name of RATE_CLASSES) {
    const own = overrides?.[name];
    if (own !== undefined) limits[name] = own;
  }
  return limits;
}
