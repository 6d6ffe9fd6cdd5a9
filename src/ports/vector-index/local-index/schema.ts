/**
 * The LocalVectorIndex object's SQLite schema: append-only steps, the applied ones recorded
 * in `schema_migrations` (PRAGMA user_version is unavailable in Durable Objects).
 */
const MIGRATIONS: string[][] = [
  [
    `CREATE TABLE vectors (id TEXT PRIMARY KEY, video_id TEXT NOT NULL, codes BLOB NOT NULL,
       scale REAL NOT NULL)`,
    "CREATE TABLE meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL)",
    "CREATE TABLE feature_df (chunk INTEGER PRIMARY KEY, counts BLOB NOT NULL)",
    `CREATE TABLE feature_keys (key TEXT NOT NULL, part INTEGER NOT NULL,
       documents INTEGER NOT NULL, pairs BLOB NOT NULL, PRIMARY KEY (key, part))`,
  ],
  // Paged vectors (PagedVectors): each vector gets a slot; full blocks are sealed as one row
  // per dimension plus their row data, so memory no longer grows with the index.
  [
    "ALTER TABLE vectors ADD COLUMN slot INTEGER",
    "CREATE UNIQUE INDEX vectors_by_slot ON vectors (slot)",
    "CREATE TABLE video_names (video INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)",
    `CREATE TABLE block_columns (block INTEGER NOT NULL, dim INTEGER NOT NULL,
       codes BLOB NOT NULL, PRIMARY KEY (block, dim))`,
    `CREATE TABLE blocks (block INTEGER PRIMARY KEY, inv_norms BLOB NOT NULL,
       videos BLOB NOT NULL, live INTEGER NOT NULL)`,
  ],
];

/** Applies the schema steps not yet recorded; run in the constructor's blockConcurrencyWhile. */
export function migrate(sql: SqlStorage): void {
  sql.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY)");
  const applied =
    sql
      .exec<{ version: number }>("SELECT max(version) AS version FROM schema_migrations")
      .toArray()[0]?.version ?? 0;
  for (let version = applied + 1; version <= MIGRATIONS.length; version++) {
    for (const statement of MIGRATIONS[version - 1] ?? []) sql.exec(statement);
    sql.exec("INSERT INTO schema_migrations (version) VALUES (?)", version);
  }
}

/** A number kept in the `meta` table (0 when it was never written). */
export function readMeta(sql: SqlStorage, name: string): number {
  return (
    sql.exec<{ value: number }>("SELECT value FROM meta WHERE name = ?", name).toArray()[0]
      ?.value ?? 0
  );
}

/** Writes a number to the `meta` table. */
export function writeMeta(sql: SqlStorage, name: string, value: number): void {
  sql.exec(
    "INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
    name,
    value,
  );
}
