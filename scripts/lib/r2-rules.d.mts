// Types of r2-rules.mjs for the node tests.
export interface CorsRule {
  allowed: { origins: string[]; methods: string[]; headers?: string[] };
  exposeHeaders?: string[];
  maxAgeSeconds?: number;
}
export function corsFile(configPath: string): string;
export function lifecycleFile(configPath: string): string;
export function corsRules(origins: string[]): { rules: CorsRule[] };
export function corsRows(rules: CorsRule[]): Record<string, string>[];
export function lifecycleRows(rules: unknown[]): Record<string, string>[];
export function listedRows(output: string): Record<string, string>[];
export function sameRows(listed: unknown[], wanted: unknown[]): boolean;
