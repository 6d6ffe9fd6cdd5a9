// Types of production-config.mjs for the node tests.
export type Reach =
  | { kind: "domain" | "route"; host: string }
  | { kind: "workers.dev"; host?: undefined };
export const TEMPLATE_HOST: string;
export function resolvedConfig(configPath: string, env?: string): Promise<ResolvedConfig>;
export interface ResolvedConfig {
  name: string;
  routes?: (string | { pattern: string; custom_domain?: boolean; zone_name?: string })[];
  workers_dev?: boolean;
  compatibility_date?: string;
  compatibility_flags: string[];
  observability?: { enabled?: boolean; logs?: { enabled?: boolean } };
  rules?: { type: string; globs: string[] }[];
  [key: string]: unknown;
}
export function reachOf(config: ResolvedConfig): Reach | null;
export function apiOrigin(reach: Reach, workerName: string): { origin?: string; pattern?: RegExp };
export function setTomlKey(text: string, header: string, key: string, value: unknown): string;
export function withProductionValues(
  text: string,
  values: { accountId: string; databaseId: string; reach: Reach },
): string;
export function formatJson(value: unknown): string;
export function isPlaceholder(value: unknown): boolean;
export const WRITTEN_KEYS: string[];
export function placeholdersIn(config: ResolvedConfig): { key: string; value: string }[];
export function checkDeployedValues(config: ResolvedConfig): string[];
