import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  interface ProvidedContext {
    /** A state folder holding every D1 migration, applied once for the node project's run. */
    migratedState: string;
  }
}

const ROOT = path.resolve(import.meta.dirname, "../..");

const MIGRATED = Symbol.for("vas.test.migrated-state");

async function migrate(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), "vas-migrated-state-"));
  await promisify(execFile)(
    path.join(ROOT, "node_modules/.bin/wrangler"),
    ["d1", "migrations", "apply", "DB", "--local", "--persist-to", dir],
    { cwd: ROOT, env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" } },
  );
  return dir;
}

/**
 * Global setup of the node projects: applies the migrations once per run, the way `npm run
 * dev` does, into a folder each local process's state folder starts as a copy of. wrangler
 * starts a runtime per migration (~20 s of CPU for all of them), which every start would pay
 * again; the node and node-production projects share the one folder.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const memo = globalThis as { [MIGRATED]?: Promise<string> };
  memo[MIGRATED] ??= migrate();
  const dir = await memo[MIGRATED];
  project.provide("migratedState", dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
