import type { BatchItem } from "drizzle-orm/batch";
import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

/** The drizzle database over the D1 binding. */
export function database(d1: D1Database) {
  return drizzle(d1, { schema });
}

/** The drizzle database type the repos take. */
export type Database = ReturnType<typeof database>;

/** Runs statements as one D1 batch (one transaction); an empty list does nothing. */
export async function runBatch(db: Database, statements: BatchItem<"sqlite">[]): Promise<void> {
  const [first, ...rest] = statements;
  if (first) await db.batch([first, ...rest]);
}
