import type { Env } from "../../src/env";

/**
 * Counts what a Worker invocation sends out, as the platform counts subrequests: each D1
 * query or batch, each R2, Durable Object stub, queue, AI or Vectorize call, each fetch.
 * Build the dependencies of the invocation under test from `counting.env`.
 */
export interface SubrequestCounter {
  env: Env;
  counts: Record<string, number>;
  total(): number;
}

function count(counts: Record<string, number>, name: string) {
  counts[name] = (counts[name] ?? 0) + 1;
}

/** `work`, counted once under `name` when it is called. */
function counted<A extends unknown[], R>(
  counts: Record<string, number>,
  name: string,
  work: (...args: A) => R,
): (...args: A) => R {
  return (...args) => {
    count(counts, name);
    return work(...args);
  };
}

/** Every method call on the object counts once under `name`. */
function calls<T extends object>(target: T, name: string, counts: Record<string, number>): T {
  return new Proxy(target, {
    get(t, property) {
      const value = Reflect.get(t, property, t);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        count(counts, name);
        return Reflect.apply(value, t, args);
      };
    },
  });
}

/** A D1 binding whose queries and batches count; statements stay real for `batch`. */
function countingD1(d1: D1Database, counts: Record<string, number>): D1Database {
  const real = new WeakMap<object, D1PreparedStatement>();
  const wrap = (statement: D1PreparedStatement): D1PreparedStatement => {
    const wrapped = {
      bind: (...values: unknown[]) => wrap(statement.bind(...values)),
      run: counted(counts, "d1", () => statement.run()),
      all: counted(counts, "d1", () => statement.all()),
      first: counted(counts, "d1", (column?: string) => statement.first(column as string)),
      raw: counted(counts, "d1", (options?: { columnNames?: false }) => statement.raw(options)),
    } as unknown as D1PreparedStatement;
    real.set(wrapped, statement);
    return wrapped;
  };
  return {
    prepare: (query: string) => wrap(d1.prepare(query)),
    batch: counted(counts, "d1", (statements: D1PreparedStatement[]) =>
      d1.batch(statements.map((s) => real.get(s) ?? s)),
    ),
    exec: counted(counts, "d1", (query: string) => d1.exec(query)),
  } as unknown as D1Database;
}

/** A Durable Object namespace whose stubs count every call. */
function countingNamespace<T extends object>(
  namespace: T,
  name: string,
  counts: Record<string, number>,
): T {
  return new Proxy(namespace, {
    get(t, property) {
      const value: unknown = Reflect.get(t, property, t);
      if (typeof value !== "function") return value;
      if (property === "get" || property === "getByName") {
        return (...args: unknown[]) => calls(Reflect.apply(value, t, args) as object, name, counts);
      }
      return value.bind(t);
    },
  });
}

/** The bindings of `env`, each call counted; fetch is counted while `measure` runs. */
export function countingBindings(env: Env): SubrequestCounter & {
  measure<T>(work: () => Promise<T>): Promise<T>;
} {
  const counts: Record<string, number> = {};
  const bindings: Env = {
    ...env,
    DB: countingD1(env.DB, counts),
    MEDIA_BUCKET: calls(env.MEDIA_BUCKET, "r2", counts),
    PROCESSING_QUEUE: calls(env.PROCESSING_QUEUE, "queue", counts),
    INDEXING_QUEUE: calls(env.INDEXING_QUEUE, "queue", counts),
    ANALYSIS_QUEUE: calls(env.ANALYSIS_QUEUE, "queue", counts),
    WEBHOOK_QUEUE: calls(env.WEBHOOK_QUEUE, "queue", counts),
    WEBHOOK_SLOW_QUEUE: calls(env.WEBHOOK_SLOW_QUEUE, "queue", counts),
    RUNS: countingNamespace(env.RUNS, "durable-object", counts),
    UPLOAD_SESSIONS: countingNamespace(env.UPLOAD_SESSIONS, "durable-object", counts),
    IDEMPOTENCY_KEYS: countingNamespace(env.IDEMPOTENCY_KEYS, "durable-object", counts),
    LOCAL_INDEX: countingNamespace(env.LOCAL_INDEX, "durable-object", counts),
  };
  return {
    env: bindings,
    counts,
    total: () => Object.values(counts).reduce((a, b) => a + b, 0),
    async measure(work) {
      const original = globalThis.fetch;
      globalThis.fetch = counted(counts, "fetch", (...args: Parameters<typeof fetch>) =>
        original(...args),
      );
      try {
        return await work();
      } finally {
        globalThis.fetch = original;
      }
    },
  };
}
