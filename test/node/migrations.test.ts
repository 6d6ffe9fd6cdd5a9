import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterEach, describe, expect, inject, it } from "vitest";
import { migrationsApplied } from "../../scripts/lib/migrations.mjs";

// A start skips `wrangler d1 migrations apply` only when the state folder's database has
// recorded every migration; anything else goes to wrangler, which applies what is missing.
const D1 = ["v3", "d1", "miniflare-D1DatabaseObject"];
const made: string[] = [];

function folder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "vas-migrations-"));
  made.push(dir);
  return dir;
}

function migratedCopy(): { dir: string; database: string } {
  const dir = folder();
  cpSync(inject("migratedState"), dir, { recursive: true });
  const d1 = path.join(dir, ...D1);
  const [file] = readdirSync(d1).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  return { dir, database: path.join(d1, String(file)) };
}

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("migrationsApplied", () => {
  it("holds for a state folder holding every migration", async () => {
    expect(await migrationsApplied(migratedCopy().dir)).toBe(true);
  });

  it("does not hold for an empty or missing state folder", async () => {
    expect(await migrationsApplied(folder())).toBe(false);
    expect(await migrationsApplied(path.join(folder(), "absent"))).toBe(false);
  });

  it("does not hold when the latest migration is not recorded", async () => {
    const { dir, database } = migratedCopy();
    const db = new DatabaseSync(database);
    db.exec("DELETE FROM d1_migrations WHERE id = (SELECT max(id) FROM d1_migrations)");
    db.close();
    expect(await migrationsApplied(dir)).toBe(false);
  });

  it("does not hold when the database cannot be read for sure", async () => {
    const { dir } = migratedCopy();
    // A second database: which one wrangler uses is then not known here.
    writeFileSync(path.join(dir, ...D1, "another.sqlite"), "");
    expect(await migrationsApplied(dir)).toBe(false);
    const broken = folder();
    mkdirSync(path.join(broken, ...D1), { recursive: true });
    writeFileSync(path.join(broken, ...D1, "db.sqlite"), "not a database");
    expect(await migrationsApplied(broken)).toBe(false);
  });
});
