/** The execution profiles of the spec's Versioning section and the processing budget each sets. */
export const EXECUTION_PROFILES = {
  "premium-analysis@1": { media_seconds: 4 * 3600, tokens: 2_000_000 },
  "balanced-analysis@1": { media_seconds: 3600, tokens: 400_000 },
  "economy-analysis@1": { media_seconds: 600, tokens: 60_000 },
} as const;

/** One execution profile reference (`name@version`). */
export type ExecutionProfileRef = keyof typeof EXECUTION_PROFILES;

/** The accepted references, for schemas. */
export const EXECUTION_PROFILE_REFS = Object.keys(EXECUTION_PROFILES) as [
  ExecutionProfileRef,
  ...ExecutionProfileRef[],
];

/** The profile used when a run names none. */
export const DEFAULT_EXECUTION_PROFILE: ExecutionProfileRef = "balanced-analysis@1";
