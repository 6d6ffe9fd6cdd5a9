import type { Env } from "../../../src/env";
import type { Embedder, EmbeddingKind } from "../../../src/ports/embedder/port";
import type {
  VectorIndex,
  VectorMatch,
  VectorQuery,
  VectorRecord,
} from "../../../src/ports/vector-index/port";

/**
 * Awaited before every call that reaches storage, a queue or the vector index: the point where
 * another operation may run first, or where the invocation dies. `what` names the call.
 */
export type Gate = (what: string) => Promise<void>;

/** The bucket calls that reach storage (the others only build objects). */
const BUCKET_CALLS = new Set(["get", "head", "put", "delete", "list", "createMultipartUpload"]);
/** The prepared statement's calls that run it. */
const STATEMENT_CALLS = new Set(["run", "all", "first", "raw"]);
/** The queues a service sends to. */
const QUEUES = [
  "PROCESSING_QUEUE",
  "WINDOWS_QUEUE",
  "FRAMES_QUEUE",
  "INDEXING_QUEUE",
  "ANALYSIS_QUEUE",
] as const;

function gateCalls<T extends object>(
  target: T,
  calls: ReadonlySet<PropertyKey>,
  gate: Gate,
  name: (property: string, args: unknown[]) => string,
): T {
  return new Proxy(target, {
    get(object, property) {
      const value: unknown = Reflect.get(object, property, object);
      if (typeof value !== "function") return value;
      if (!calls.has(property)) return value.bind(object);
      return async (...args: unknown[]) => {
        await gate(name(String(property), args));
        return value.apply(object, args);
      };
    },
  });
}

function keyOf(args: unknown[]): string {
  const [first] = args;
  if (typeof first === "string") return first;
  if (Array.isArray(first)) return first.join(",");
  return JSON.stringify(first ?? "");
}

/** Prepared statements of a gated database; `batch` is handed the real ones. */
const realStatements = new WeakMap<
  D1PreparedStatement,
  { statement: D1PreparedStatement; sql: string }
>();

function named(sql: string): string {
  return sql
    .replace(
      /^(select|update|delete from|insert into) .*?"?(\w+)"? (set|where|values|\().*$/is,
      "$1 $2",
    )
    .slice(0, 40);
}

function gatedStatement(statement: D1PreparedStatement, gate: Gate, sql: string) {
  const gated = new Proxy(statement, {
    get(object, property) {
      const value: unknown = Reflect.get(object, property, object);
      if (typeof value !== "function") return value;
      if (property === "bind") {
        return (...values: unknown[]) => {
          const bound: D1PreparedStatement = value.apply(object, values);
          // strictD1 wraps `bind` again; a statement already gated is not gated twice.
          return realStatements.has(bound) ? bound : gatedStatement(bound, gate, sql);
        };
      }
      if (typeof property !== "string" || !STATEMENT_CALLS.has(property)) return value.bind(object);
      return async (...args: unknown[]) => {
        await gate(`d1 ${named(sql)}`);
        return value.apply(object, args);
      };
    },
  });
  realStatements.set(gated, { statement, sql });
  return gated;
}

function gatedDatabase(d1: D1Database, gate: Gate): D1Database {
  return new Proxy(d1, {
    get(object, property) {
      if (property === "prepare") {
        return (sql: string) => gatedStatement(object.prepare(sql), gate, sql);
      }
      if (property === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          const real = statements.map((s) => realStatements.get(s));
          await gate(`d1 batch: ${real.map((r) => named(r?.sql ?? "?")).join(", ")}`);
          return object.batch(statements.map((s, i) => real[i]?.statement ?? s));
        };
      }
      const value: unknown = Reflect.get(object, property, object);
      return typeof value === "function" ? value.bind(object) : value;
    },
  });
}

/** The bucket with every storage call behind the gate. */
export function gatedBucket(bucket: R2Bucket, gate: Gate): R2Bucket {
  return gateCalls(bucket, BUCKET_CALLS, gate, (call, args) => `r2 ${call} ${keyOf(args)}`);
}

/** The bindings with D1, R2 and the work queues behind the gate. */
export function gatedEnv(env: Env, gate: Gate): Env {
  const queues = Object.fromEntries(
    QUEUES.map((name) => [
      name,
      gateCalls(env[name], new Set(["send", "sendBatch"]), gate, (call) => `${name} ${call}`),
    ]),
  );
  return {
    ...env,
    ...queues,
    DB: gatedDatabase(env.DB, gate),
    MEDIA_BUCKET: gatedBucket(env.MEDIA_BUCKET, gate),
  };
}

/** A vector index whose every call waits at the gate first. */
export class GatedVectorIndex implements VectorIndex {
  constructor(
    private readonly inner: VectorIndex,
    private readonly gate: Gate,
  ) {}

  async upsert(workspaceId: string, records: VectorRecord[]): Promise<void> {
    await this.gate(`vectors upsert ${records.length}`);
    return this.inner.upsert(workspaceId, records);
  }

  async query(
    workspaceId: string,
    vector: Float32Array,
    options: VectorQuery,
  ): Promise<VectorMatch[]> {
    await this.gate("vectors query");
    return this.inner.query(workspaceId, vector, options);
  }

  async delete(workspaceId: string, ids: string[]): Promise<void> {
    await this.gate(`vectors delete ${ids.length}`);
    return this.inner.delete(workspaceId, ids);
  }
}

/** An embedder whose statistics calls wait at the gate (they write the workspace's index). */
export class GatedEmbedder implements Embedder {
  readonly model: string;
  readonly dimensions: number;

  constructor(
    private readonly inner: Embedder,
    private readonly gate: Gate,
  ) {
    this.model = inner.model;
    this.dimensions = inner.dimensions;
  }

  async learn(workspaceId: string, key: string, documents: string[]): Promise<void> {
    await this.gate("embedder learn");
    return this.inner.learn(workspaceId, key, documents);
  }

  async forget(workspaceId: string, key: string): Promise<void> {
    await this.gate("embedder forget");
    return this.inner.forget(workspaceId, key);
  }

  embed(workspaceId: string, texts: string[], kind: EmbeddingKind): Promise<Float32Array[]> {
    return this.inner.embed(workspaceId, texts, kind);
  }
}
