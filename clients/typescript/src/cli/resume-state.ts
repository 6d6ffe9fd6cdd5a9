import { statSync } from "node:fs";
import path from "node:path";
import { readJsonFile, statePath, writeJsonFile } from "./config.js";

/** One interrupted upload: enough to find its session again for the same file. */
interface Entry {
  video_id: string;
  base_url: string;
  size: number;
  mtime_ms: number;
}

type State = Record<string, Entry>;

function identity(file: string, baseUrl: string) {
  const stat = statSync(file);
  return { key: path.resolve(file), base_url: baseUrl, size: stat.size, mtime_ms: stat.mtimeMs };
}

/** The video id of an earlier, unfinished upload of this same file to this service. */
export function pendingUpload(file: string, baseUrl: string): string | undefined {
  const { key, ...id } = identity(file, baseUrl);
  const entry = readJsonFile<State>(statePath(), {})[key];
  if (!entry) return undefined;
  const same =
    entry.base_url === id.base_url && entry.size === id.size && entry.mtime_ms === id.mtime_ms;
  return same ? entry.video_id : undefined;
}

export function rememberUpload(file: string, baseUrl: string, videoId: string): void {
  const { key, ...id } = identity(file, baseUrl);
  const state = readJsonFile<State>(statePath(), {});
  state[key] = { video_id: videoId, ...id };
  writeJsonFile(statePath(), state);
}

export function forgetUpload(file: string): void {
  const state = readJsonFile<State>(statePath(), {});
  delete state[path.resolve(file)];
  writeJsonFile(statePath(), state);
}
