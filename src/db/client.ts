import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

/** The drizzle database over the D1 binding. */
export function database(d1: D1Database) {
  return drizzle(d1, { schema });
}

/** The drizzle database type the repos take. */
export type Database = ReturnType<typeof database>;
