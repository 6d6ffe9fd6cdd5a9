import { getTableColumns, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database } from "./client";

/** Bound parameters a guard may take; row chunking leaves room for them under D1's 100. */
export const GUARD_PARAMETERS = 4;

function columnValue(column: SQLiteTable["_"]["columns"][string], value: unknown): SQL {
  if (value !== undefined) return sql`${sql.param(value, column)}`;
  if (column.default !== undefined) return sql`${sql.param(column.default, column)}`;
  if (column.defaultFn) return sql`${sql.param(column.defaultFn(), column)}`;
  return sql`null`;
}

/**
 * An insert of `rows` that writes nothing unless `guard` holds when it runs. In a D1 batch
 * (one transaction) this lets a write depend on what the earlier statements left, e.g. "the
 * video is still processing", which is how duplicate deliveries stay single writers.
 */
export function insertWhere<T extends SQLiteTable>(
  db: Database,
  table: T,
  rows: readonly T["$inferInsert"][],
  guard: SQL,
): BatchItem<"sqlite"> {
  const columns = Object.entries(getTableColumns(table));
  const tuples = rows.map((row) => {
    const values = row as Record<string, unknown>;
    const cells = columns.map(([key, column]) => columnValue(column, values[key]));
    return sql`(${sql.join(cells, sql`, `)})`;
  });
  return db
    .insert(table)
    .select(sql`select * from (values ${sql.join(tuples, sql`, `)}) where ${guard}`);
}
