// Types of banner.mjs for the node tests.
/** The simulator settings and their defaults. */
export const SIMULATOR_DEFAULTS: Record<string, string>;
/** The banner's lines about adapters, from GET /healthz and the settings started with. */
export function adaptersBanner(
  health: { status?: string; adapters?: string; simulated?: string[] } | null,
  settings?: Record<string, string | undefined>,
): string[];
/** GET /healthz of the started service; null when it does not answer. */
export function healthOf(baseUrl: string): Promise<unknown>;
