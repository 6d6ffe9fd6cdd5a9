// Types of local.mjs for the node tests.
/** How often the local start scripts fire the crash sweep, in seconds, unless told. */
export const DEFAULT_SWEEP_INTERVAL_SECONDS: number;
