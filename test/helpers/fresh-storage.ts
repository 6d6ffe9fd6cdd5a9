import { env, reset } from "cloudflare:test";

/** The table wrangler and `applyD1Migrations` record applied migrations in, as they create it. */
const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "d1_migrations" (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  name       TEXT UNIQUE,
  applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
)`;

/**
 * Deletes everything stored (D1, R2, queues and Durable Objects all live in Durable Objects
 * under Miniflare) and migrates D1 again: what the workers setup file runs before each file.
 * As `applyD1Migrations` does, migrations already recorded are skipped (work in flight across
 * the reset can leave D1 as it was); the rest go in one batch, one transaction, and are recorded
 * as it records them. Its batch per migration took twice as long, before every one of 254 files.
 */
export async function freshStorage(): Promise<void> {
  await reset();
  const db = env.DB;
  await db.prepare(MIGRATIONS_TABLE).run();
  const applied = await db.prepare(`SELECT name FROM "d1_migrations"`).all<{ name: string }>();
  const done = new Set(applied.results.map((row) => row.name));
  const record = db.prepare(`INSERT INTO "d1_migrations" (name) VALUES (?)`);
  const statements = env.TEST_MIGRATIONS.filter((migration) => !done.has(migration.name)).flatMap(
    (migration) => [
      ...migration.queries.map((query) => db.prepare(query)),
      record.bind(migration.name),
    ],
  );
  if (statements.length > 0) await db.batch(statements);
}
