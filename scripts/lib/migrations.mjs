// The D1 migrations of a local state folder. `wrangler d1 migrations apply` starts wrangler and
// a runtime even when nothing is left to apply (about 3 s of CPU a start, and 20 s or more on a
// busy machine); a start on a state folder that already holds every migration reads the
// migrations table itself and skips it. Anything it cannot read for sure goes to wrangler.
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const WRANGLER = path.join(ROOT, "node_modules", ".bin", "wrangler");
/** Where Miniflare keeps the local D1 databases of a state folder (`--persist-to`). */
const D1_DIR = ["v3", "d1", "miniflare-D1DatabaseObject"];

/** node:sqlite, without its experimental-feature warning on stderr; null where it is missing. */
async function loadSqlite() {
  const emit = process.emitWarning;
  process.emitWarning = (warning, ...rest) => {
    if (String(warning).includes("SQLite")) return;
    emit.call(process, warning, ...rest);
  };
  try {
    return await import("node:sqlite");
  } catch {
    return null;
  } finally {
    process.emitWarning = emit;
  }
}

/** Whether the state folder's one D1 database has recorded every file of `migrations/`. */
export async function migrationsApplied(stateDir) {
  const dir = path.join(stateDir, ...D1_DIR);
  let databases;
  try {
    databases = readdirSync(dir).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  } catch {
    return false;
  }
  if (databases.length !== 1) return false;
  const sqlite = await loadSqlite();
  if (sqlite === null) return false;
  const wanted = readdirSync(path.join(ROOT, "migrations")).filter((f) => f.endsWith(".sql"));
  try {
    const db = new sqlite.DatabaseSync(path.join(dir, databases[0]), { readOnly: true });
    try {
      const rows = db.prepare("SELECT name FROM d1_migrations").all();
      const applied = new Set(rows.map((row) => row.name));
      return wanted.every((name) => applied.has(name));
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
}

/** Applies the D1 migrations to the local state folder (the same one wrangler dev uses). */
export async function applyMigrations(stateDir) {
  mkdirSync(stateDir, { recursive: true });
  if (await migrationsApplied(stateDir)) return;
  const result = spawnSync(
    WRANGLER,
    ["d1", "migrations", "apply", "DB", "--local", "--persist-to", stateDir],
    {
      cwd: ROOT,
      env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" },
      encoding: "utf8",
    },
  );
  if (result.status !== 0) {
    process.stderr.write(result.stdout ?? "");
    process.stderr.write(result.stderr ?? "");
    throw new Error("applying D1 migrations failed");
  }
}
