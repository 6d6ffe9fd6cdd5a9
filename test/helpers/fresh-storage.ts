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
 * The migrations go in one batch (one transaction) and are recorded as `applyD1Migrations`
 * records them; its batch per migration took twice as long, before every one of 254 files.
 */
export async function freshStorage(): Promise<void> {
  await reset();
  const db = env.DB;
  const record = db.prepare(`INSERT INTO "d1_migrations" (name) VALUES (?)`);
  await db.batch([
    db.prepare(MIGRATIONS_TABLE),
    ...env.TEST_MIGRATIONS.flatMap((migration) => [
      ...migration.queries.map((query) => db.prepare(query)),
      record.bind(migration.name),
    ]),
  ]);
}
