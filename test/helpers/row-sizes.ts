import { env } from "cloudflare:workers";
import { D1_LIMITS } from "../../src/db/limits";

/** A stored row larger than production D1 accepts. */
export interface OversizedRow {
  table: string;
  bytes: number;
}

// Tables the platform or the test runner keep, not the service.
const SKIPPED = /^(sqlite_|_cf_|d1_migrations$)/;

// The queries are rebuilt only when the set of tables changed.
let cached: { tables: string; queries: string[] } | null = null;

async function sizeQueries(): Promise<string[]> {
  const tables = await env.DB.prepare(
    "SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name",
  ).all<{ name: string }>();
  const names = tables.results.map((t) => t.name).filter((name) => !SKIPPED.test(name));
  if (cached?.tables === names.join()) return cached.queries;
  const parts: string[] = [];
  for (const name of names) {
    const columns = await env.DB.prepare(`SELECT name FROM pragma_table_info(?)`)
      .bind(name)
      .all<{ name: string }>();
    const sum = columns.results
      .map((c) => `coalesce(length(CAST("${c.name}" AS BLOB)), 0)`)
      .join(" + ");
    parts.push(
      `SELECT '${name}' AS tbl, (${sum}) AS bytes FROM "${name}" WHERE (${sum}) > ${D1_LIMITS.valueBytes} LIMIT 10`,
    );
  }
  cached = { tables: names.join(), queries: parts };
  return cached.queries;
}

/**
 * Every row of the test database whose values add up to more than D1's 2,000,000-byte row
 * limit: the local simulator stores them, production would refuse the statement.
 */
export async function oversizedRows(): Promise<OversizedRow[]> {
  // One round trip: the simulator allows only a few terms in a compound SELECT.
  const results = await env.DB.batch<{ tbl: string; bytes: number }>(
    (await sizeQueries()).map((query) => env.DB.prepare(query)),
  );
  return results.flatMap((result) => result.results).map((r) => ({ table: r.tbl, bytes: r.bytes }));
}
