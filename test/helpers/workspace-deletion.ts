import { env } from "cloudflare:workers";
import type { Env } from "../../src/env";
import { createPorts } from "../../src/ports";
import {
  eraseWorkspace,
  type WorkspaceErasureResult,
} from "../../src/services/deletion/erase-workspace";
import { createDeps } from "../../src/services/deps";
import { admin } from "./harness";
import { LEASE_MS, recordingEnv } from "./sweep";

/** DELETE /admin/v1/workspaces/{id}. */
export function deleteWorkspace(id: string): Promise<Response> {
  return admin("DELETE", `/workspaces/${id}`);
}

/** Tables no test world writes and that hold nothing of a workspace (SQLite's and D1's own). */
const INTERNAL =
  /^(sqlite_|_cf_|d1_migrations$|(segment_search|video_filename_search)_(data|idx|docsize|config)$)/;

/** Every table of the database (the full-text index's own storage and D1's left out). */
export async function allTables(): Promise<string[]> {
  const { results } = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
  ).all<{ name: string }>();
  return results.map((row) => row.name).filter((name) => !INTERNAL.test(name));
}

/**
 * Every table with a `workspace_id` column, read from the schema itself, so a table added later
 * is counted without anyone listing it here.
 */
export async function workspaceTables(): Promise<string[]> {
  const tables: string[] = [];
  for (const table of await allTables()) {
    const { results } = await env.DB.prepare("SELECT name FROM pragma_table_info(?)")
      .bind(table)
      .all<{ name: string }>();
    if (results.some((column) => column.name === "workspace_id")) tables.push(table);
  }
  return tables;
}

/** How many rows of each table with a `workspace_id` column belong to the workspace. */
export async function rowsOfWorkspace(workspaceId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await workspaceTables()) {
    const row = await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE workspace_id = ?`)
      .bind(workspaceId)
      .first<{ n: number }>();
    counts[table] = row?.n ?? -1;
  }
  return counts;
}

const ID = /^[a-z]+_[0-9a-z]{26}$/;

/**
 * Every id the workspace's rows hold (`id` and `…_id` columns of every table with a
 * `workspace_id` column): its videos, runs, reports, keys, owners, rule sets and so on.
 */
export async function idsOfWorkspace(workspaceId: string): Promise<Set<string>> {
  const ids = new Set([workspaceId]);
  for (const table of await workspaceTables()) {
    const { results } = await env.DB.prepare(`SELECT * FROM ${table} WHERE workspace_id = ?`)
      .bind(workspaceId)
      .all<Record<string, unknown>>();
    for (const row of results) {
      for (const [column, value] of Object.entries(row)) {
        const named = column === "id" || column.endsWith("_id") || column === "created_by";
        if (named && typeof value === "string" && ID.test(value)) ids.add(value);
      }
    }
  }
  return ids;
}

/** Rows of any table (children without a `workspace_id` column too) that mention one of `ids`. */
export async function rowsMentioning(ids: Set<string>): Promise<string[]> {
  const found: string[] = [];
  for (const table of await allTables()) {
    const { results } = await env.DB.prepare(`SELECT * FROM ${table}`).all();
    for (const row of results) {
      const text = JSON.stringify(row);
      for (const id of ids) if (text.includes(id)) found.push(`${table}: ${id}`);
    }
  }
  return found;
}

/** Every key of the media bucket. */
export async function bucketKeys(): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await env.MEDIA_BUCKET.list(cursor === undefined ? {} : { cursor });
    keys.push(...page.objects.map((object) => object.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor !== undefined);
  return keys.sort();
}

/** Keys of the bucket that name one of `ids`. */
export async function keysMentioning(ids: Set<string>): Promise<string[]> {
  return (await bucketKeys()).filter((key) => [...ids].some((id) => key.includes(id)));
}

/**
 * Delivers erase-workspace messages as the queue would, `leases` leases from now, until the
 * erasure ends or `deliveries` run out; answers what the last delivery did. The messages a
 * delivery sends are recorded (this loop is their consumer), not queued.
 */
export async function eraseLater(
  workspaceId: string,
  options: { leases?: number; deliveries?: number; target?: Env } = {},
): Promise<WorkspaceErasureResult> {
  const target = options.target ?? recordingEnv().env;
  const base = createDeps(target, createPorts(target));
  const at = Date.now() + (options.leases ?? 2) * LEASE_MS;
  const deps = { ...base, clock: { now: () => at } };
  const message = { type: "erase-workspace" as const, workspace_id: workspaceId };
  let result: WorkspaceErasureResult = "continued";
  for (let i = 0; i < (options.deliveries ?? 100) && result === "continued"; i++) {
    result = await eraseWorkspace(deps, message);
  }
  return result;
}
