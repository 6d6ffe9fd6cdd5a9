import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";

export interface GlobalOptions {
  baseUrl?: string;
  apiKey?: string;
  json?: boolean;
}

export interface Settings {
  baseUrl: string;
  apiKey: string;
  json: boolean;
}

/** Exit codes, documented in the package README. */
export const EXIT = {
  ok: 0,
  error: 1,
  usage: 2,
  failed: 3,
  timeout: 4,
  interrupted: 130,
} as const;

export class UsageError extends Error {}

function configDir(): string {
  const base = process.env.XDG_CONFIG_HOME || path.join(homedir(), ".config");
  return path.join(base, "vas");
}

/** `VAS_CONFIG`, else `~/.config/vas/config.json`: `{ "base_url": …, "api_key": … }`. */
export function configPath(): string {
  return process.env.VAS_CONFIG || path.join(configDir(), "config.json");
}

/** Where interrupted uploads are remembered: `VAS_STATE_FILE`, else beside the config. */
export function statePath(): string {
  return process.env.VAS_STATE_FILE || path.join(path.dirname(configPath()), "uploads.json");
}

function readConfig(): { base_url?: string; api_key?: string } {
  const file = configPath();
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    throw new UsageError(`${file} is not valid JSON.`);
  }
}

/** Flags win over the environment, which wins over the config file. */
export function settings(options: GlobalOptions): Settings {
  const file = readConfig();
  const baseUrl = options.baseUrl || process.env.VAS_BASE_URL || file.base_url;
  const apiKey = options.apiKey || process.env.VAS_API_KEY || file.api_key;
  if (!baseUrl) throw new UsageError("No base URL: pass --base-url or set VAS_BASE_URL.");
  if (!apiKey) throw new UsageError("No API key: pass --api-key or set VAS_API_KEY.");
  return { baseUrl, apiKey, json: options.json ?? false };
}

export function readJsonFile<T>(file: string, fallback: T): T {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as T;
  } catch {
    return fallback;
  }
}

/** Written beside, then renamed: a Ctrl-C mid-write or a reader never sees half a file. */
export function writeJsonFile(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
}
