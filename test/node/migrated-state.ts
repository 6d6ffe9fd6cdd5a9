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

/**
 * Global setup of the node project: applies the migrations once, the way `npm run dev` does,
 * into a folder each local process's state folder starts as a copy of. wrangler starts a
 * runtime per migration (~20 s of CPU for all of them), which every start would pay again.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(path.join(tmpdir(), "vas-migrated-state-"));
  await promisify(execFile)(
    path.join(ROOT, "node_modules/.bin/wrangler"),
    ["d1", "migrations", "apply", "DB", "--local", "--persist-to", dir],
    { cwd: ROOT, env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" } },
  );
  project.provide("migratedState", dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
