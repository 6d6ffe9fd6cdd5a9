import { env } from "cloudflare:workers";
import { getTableColumns, getTableName, is } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { type Database, database } from "../../../src/db/client";
import * as schema from "../../../src/db/schema";

/** Rows seeded into every table of the schema: enough for ANALYZE to describe a big table. */
export const SEED_ROWS = 4_000;
/** Distinct workspaces (and owners) among the seeded rows. */
const WORKSPACES = 40;
/** Children per parent row for every other `…_id` column (answers per run, …). */
const CHILDREN = 8;

/**
 * The tables that grow with use. A full scan of one of these is a failure; the others stay
 * small whatever the traffic (`work_leases` holds only work in flight).
 */
export const GROWING_TABLES = new Set([
  "workspaces",
  "audit_log",
  "api_keys",
  "videos",
  "video_segments",
  "segment_search",
  "segment_text",
  "video_filename_search",
  "runs",
  "run_snapshots",
  "run_steps",
  "answers",
  "reports",
  "findings",
  "events",
  "webhook_endpoints",
  "webhook_deliveries",
  "webhook_attempts",
  "profiles",
  "profile_versions",
  "report_templates",
  "report_template_versions",
  "rulebooks",
  "rule_set_versions",
  "rules",
  "rulebook_csv_imports",
  "workflows",
  "usage_daily",
  "video_usage",
]);

/** The id the seed gives row `n` (1-based) of a table, so queries can name real rows. */
export function seededId(table: string, n: number): string {
  return `${table}_${String(n).padStart(8, "0")}`;
}

const TABLES: SQLiteTable[] = (Object.values(schema) as unknown[]).flatMap((value) =>
  is(value, SQLiteTable) ? [value] : [],
);
const TABLE_NAMES = new Set(TABLES.map((table) => getTableName(table)));

const fansOut = (column: string) => column === "workspace_id" || column === "owner_id";

/** SQL of the seeded number of the parent of row `i` for a `…_id` column. */
function parentNumber(column: string): string {
  return fansOut(column) ? `((i % ${WORKSPACES}) + 1)` : `((i / ${CHILDREN}) + 1)`;
}

/** The table a `…_id` column points at: its foreign key, else the table its name says. */
function referencedTable(table: SQLiteTable, column: string): string | undefined {
  for (const key of getTableConfig(table).foreignKeys) {
    const reference = key.reference();
    if (reference.columns[0]?.name === column) return getTableName(reference.foreignTable);
  }
  const named = `${column.slice(0, -"_id".length)}s`;
  return TABLE_NAMES.has(named) ? named : undefined;
}

/** The value the seed gives `column` of row `n` of `table`, for queries to name real rows. */
export function seededRef(table: SQLiteTable, column: string, n: number): string {
  const parent = fansOut(column) ? (n % WORKSPACES) + 1 : Math.floor(n / CHILDREN) + 1;
  const target = referencedTable(table, column);
  return target ? seededId(target, parent) : `${column}_${parent}`;
}

type Column = ReturnType<typeof getTableColumns>[string];

/** A SQL expression of the row number `i` for one column, by its name and kind. */
function seedValue(table: SQLiteTable, column: Column): string {
  const name = column.name;
  const value = (() => {
    if (name === "id" && column.columnType === "SQLiteText")
      return `'${getTableName(table)}_' || printf('%08d', i)`;
    if (name === "id") return "i";
    if (name.endsWith("_id")) {
      const target = referencedTable(table, name);
      const parent = parentNumber(name);
      return target ? `'${target}_' || printf('%08d', ${parent})` : `'${name}_' || ${parent}`;
    }
    const values = (column as { enumValues?: string[] }).enumValues;
    if (values && values.length > 0) {
      return `(CASE i % ${values.length} ${values.map((v, k) => `WHEN ${k} THEN '${v}'`).join(" ")} END)`;
    }
    if (column.dataType === "json") return "'[]'";
    if (column.dataType === "boolean") return "(i % 2)";
    if (column.dataType === "number") return "i";
    if (name.endsWith("_at")) return `printf('2026-01-01T%08dZ', i)`;
    return `'${name} ' || i`;
  })();
  // One row in ten leaves a nullable column empty (undispatched events, live rulebooks, …).
  return column.notNull ? value : `(CASE WHEN i % 10 = 0 THEN NULL ELSE ${value} END)`;
}

/** The tables in an order that fills every foreign key's target before the key. */
function parentsFirst(): SQLiteTable[] {
  const ordered: SQLiteTable[] = [];
  const done = new Set<string>();
  while (ordered.length < TABLES.length) {
    const before = ordered.length;
    for (const table of TABLES) {
      const name = getTableName(table);
      const targets = getTableConfig(table).foreignKeys.map((key) =>
        getTableName(key.reference().foreignTable),
      );
      if (done.has(name) || !targets.every((target) => done.has(target) || target === name))
        continue;
      ordered.push(table);
      done.add(name);
    }
    if (ordered.length === before) throw new Error("foreign keys form a cycle; seed by hand");
  }
  return ordered;
}

/** Fills every table of the schema (the full-text index by its triggers), then ANALYZE. */
export async function seedAll(): Promise<void> {
  const numbers = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${SEED_ROWS})`;
  const statements: D1PreparedStatement[] = [];
  for (const table of parentsFirst()) {
    const columns = Object.values(getTableColumns(table));
    const names = columns.map((column) => `"${column.name}"`).join(", ");
    const values = columns.map((column) => seedValue(table, column)).join(", ");
    // OR IGNORE: the generated values may repeat a pair a unique index forbids; a few
    // fewer rows change nothing here.
    statements.push(
      env.DB.prepare(
        `${numbers} INSERT OR IGNORE INTO "${getTableName(table)}" (${names}) SELECT ${values} FROM n`,
      ),
    );
  }
  await env.DB.batch(statements);
  await env.DB.prepare("ANALYZE").run();
}

/** One statement a repo function sent to D1. */
export interface Recorded {
  sql: string;
  params: unknown[];
}

/**
 * A drizzle database over the test's D1 that runs every statement as usual and records it,
 * so that the plans checked are those of the SQL the repo functions really send.
 */
export function recordingDatabase(): { db: Database; recorded: Recorded[] } {
  const recorded: Recorded[] = [];
  const d1 = env.DB;
  const recording = {
    prepare(query: string) {
      const statement = d1.prepare(query);
      return {
        bind(...params: unknown[]) {
          recorded.push({ sql: query, params });
          return statement.bind(...params);
        },
      };
    },
    batch: (statements: D1PreparedStatement[]) => d1.batch(statements),
    exec: (query: string) => d1.exec(query),
  } as unknown as D1Database;
  return { db: database(recording), recorded };
}

/** The lines of SQLite's plan of a recorded statement. */
export async function planOf(statement: Recorded): Promise<string[]> {
  const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${statement.sql}`)
    .bind(...statement.params)
    .all<{ detail: string }>();
  return plan.results.map((row) => row.detail);
}

/**
 * The plan lines that read a whole growing table: `SCAN t` with no index; `SCAN t USING
 * INDEX` unless the statement has a LIMIT (an index walked in order stops there, as newest-
 * first lists do); or a full-text table scanned without MATCH (FTS5 writes its constraints
 * after the colon, `M` for MATCH: `VIRTUAL TABLE INDEX 0:M4` uses the index, `INDEX 0:` not).
 */
export function fullScans(statement: Recorded, plan: string[]): string[] {
  const limited = /\blimit\b/i.test(statement.sql);
  return plan.filter((line) => {
    const scanned = /^SCAN (\w+)(.*)$/.exec(line);
    if (!scanned?.[1] || !GROWING_TABLES.has(scanned[1])) return false;
    const rest = scanned[2] ?? "";
    if (rest.includes("VIRTUAL TABLE")) return !/INDEX \d+:\S*M/.test(rest);
    return !(rest.includes("USING") && limited);
  });
}
