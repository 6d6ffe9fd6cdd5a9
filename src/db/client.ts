import type { BatchItem } from "drizzle-orm/batch";
import { drizzle } from "drizzle-orm/d1";
import { checkBoundValues, checkFunctionArgs } from "./limits";
import * as schema from "./schema";

function open(d1: D1Database) {
  return drizzle(strictD1(d1), { schema });
}

/** SQL texts already checked; drizzle sends the same few hundred again and again. */
const checkedSql = new Set<string>();

/**
 * The binding with production's limits enforced before a statement leaves the Worker: no
 * function call over 32 arguments, no bound value over 2,000,000 bytes, at most 100
 * parameters. The simulator under `wrangler dev` and the tests accepts more than D1 does,
 * so every path through the repos would otherwise meet these limits first in production.
 */
export function strictD1(d1: D1Database): D1Database {
  const prepare = (query: string): D1PreparedStatement => {
    if (!checkedSql.has(query)) {
      checkFunctionArgs(query);
      if (checkedSql.size >= 2_000) checkedSql.clear();
      checkedSql.add(query);
    }
    const statement = d1.prepare(query);
    const bind = statement.bind.bind(statement);
    statement.bind = (...values: unknown[]) => {
      checkBoundValues(values);
      return bind(...values);
    };
    return statement;
  };
  return new Proxy(d1, {
    get(target, property) {
      if (property === "prepare") return prepare;
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** The drizzle database type the repos take. */
export type Database = ReturnType<typeof open>;

/**
 * One drizzle database per D1 binding. Building one walks the whole schema (drizzle's
 * relational config), ~0.8 ms of CPU that every request paid; the binding object lives as
 * long as the isolate, and the database holds nothing per request.
 */
const opened = new WeakMap<D1Database, Database>();

/** The drizzle database over the D1 binding. */
export function database(d1: D1Database): Database {
  let db = opened.get(d1);
  if (!db) {
    db = open(d1);
    opened.set(d1, db);
  }
  return db;
}

/** Runs statements as one D1 batch (one transaction); an empty list does nothing. */
export async function runBatch(db: Database, statements: BatchItem<"sqlite">[]): Promise<void> {
  const [first, ...rest] = statements;
  if (first) await db.batch([first, ...rest]);
}
