import { getTableColumns, is, SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn, SQLiteTable, SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import type { Database } from "./client";

/**
 * UTF-8 bytes of rows one statement carries: its one bound value, half of what D1 takes in a
 * value (2,000,000 bytes), so a statement stays far from that limit and from the 30 s a query
 * may run (a 1 MB statement inserts ~1,000 answers).
 */
export const JSON_ROWS_BYTES = 1_000_000;

const encoder = new TextEncoder();

type Column = SQLiteTable["_"]["columns"][string];

/**
 * What D1 stores for a column, as drizzle's own insert binds it: the value, else the column's
 * default, through the column's mapping (JSON columns as their text).
 */
function driverValue(column: Column, value: unknown): unknown {
  const given =
    value !== undefined
      ? value
      : column.default !== null && column.default !== undefined
        ? column.default
        : column.defaultFn
          ? column.defaultFn()
          : null;
  if (is(given, SQL)) throw new TypeError(`${column.name}: an SQL default cannot travel as JSON`);
  const stored = given === null ? null : column.mapToDriverValue(given);
  if (stored === null || typeof stored === "string") return stored;
  if (typeof stored === "number" && Number.isFinite(stored)) return stored;
  throw new TypeError(`${column.name}: ${typeof stored} cannot travel as a JSON row`);
}

/** How rows are written besides being inserted. */
export interface JsonRowsOptions {
  /** Each statement writes only while this holds when it runs (a video still processing). */
  where?: SQL;
  /** A row whose `replace` key is taken replaces the row there instead of being skipped. */
  replace?: SQLiteColumn;
}

/**
 * Statements that insert many rows, each statement carrying its rows as one bound JSON array
 * that SQL unpacks (`json_each`): bound one value a cell, D1's 100 parameters a statement take
 * 4 to 7 rows, so thousands of rows would take hundreds of statements; here they take a few.
 * Each row is stored as drizzle's insert stores it; a row that conflicts is skipped
 * (`ON CONFLICT DO NOTHING`), so storing the same rows again adds nothing, or with `replace`
 * takes the place of the one there.
 */
export function insertJsonRowsStatements<T extends SQLiteTable>(
  db: Database,
  table: T,
  rows: readonly T["$inferInsert"][],
  options: JsonRowsOptions = {},
): BatchItem<"sqlite">[] {
  // The columns drizzle's insert names, in its order.
  const columns = Object.entries(getTableColumns(table)).filter(
    ([, column]) => column.generated === undefined || column.generated.type === "byDefault",
  );
  const cells = sql.join(
    columns.map((_, i) => sql.raw(`json_extract(value, '$[${i}]')`)),
    sql`, `,
  );
  const replace = options.replace;
  // Every column but the key takes the incoming row's value (SQLite's `excluded`).
  const replaced = Object.fromEntries(
    columns
      .filter(([, column]) => column !== replace)
      .map(([key, column]) => [key, sql.raw(`excluded."${column.name}"`)]),
  ) as SQLiteUpdateSetSource<T>;
  const where = options.where ?? sql`true`;
  const statements: BatchItem<"sqlite">[] = [];
  let slice: string[] = [];
  let bytes = 2;
  const flush = () => {
    if (slice.length === 0) return;
    const json = `[${slice.join(",")}]`;
    const insert = db
      .insert(table)
      .select(sql`select ${cells} from json_each(${json}) where ${where}`);
    statements.push(
      replace
        ? insert.onConflictDoUpdate({ target: replace, set: replaced })
        : insert.onConflictDoNothing(),
    );
    slice = [];
    bytes = 2;
  };
  for (const row of rows) {
    const values = row as Record<string, unknown>;
    const text = JSON.stringify(columns.map(([key, column]) => driverValue(column, values[key])));
    const size = encoder.encode(text).length + 1;
    if (slice.length > 0 && bytes + size > JSON_ROWS_BYTES) flush();
    slice.push(text);
    bytes += size;
  }
  flush();
  return statements;
}
