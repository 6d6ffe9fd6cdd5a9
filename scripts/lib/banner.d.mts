// Types of banner.mjs for the node tests.
/** The simulator settings and their defaults. */
export const SIMULATOR_DEFAULTS: Record<string, string>;
/** What GET /healthz answers, as far as the banner reads it. */
export interface Health {
  status?: string;
  adapters?: string;
  simulated?: string[];
  understanding?: { speech?: boolean; hears?: string; sees?: string; reads?: string };
}
/** The banner's lines about adapters, from GET /healthz and the settings started with. */
export function adaptersBanner(
  health: Health | null,
  settings?: Record<string, string | undefined>,
): string[];
/** The banner's lines about what the media engine hears, sees and reads, from GET /healthz. */
export function understandingBanner(health: Health | null): string[];
/** The pages to open in a browser: the API reference and the playground. */
export function pagesBanner(baseUrl: string): string[];
/** GET /healthz of the started service; null when it does not answer. */
export function healthOf(baseUrl: string): Promise<unknown>;
