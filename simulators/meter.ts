/**
 * Counts the subrequests invocations make through their bindings, as the platform counts them
 * against its per-invocation limit: every D1 query, R2 operation, queue send, Durable Object
 * call, model and media call. (The service's own `fetch` calls, webhook deliveries and the
 * production storage adapter's S3 calls, are not seen here.) A call adds to every invocation
 * running at that moment: the service keeps adapters built from the first event's bindings,
 * so a call cannot always be told apart, and each count is an upper bound.
 */
export interface Meter {
  kind: string;
  count: number;
}

const running = new Set<Meter>();
/** The most subrequests one invocation made, per kind of invocation, since the start. */
const peaks = new Map<string, number>();

function tick(): void {
  for (const meter of running) meter.count++;
}

/** Starts counting an invocation of `kind` (`fetch`, `queue:media-windows`, …). */
export function beginInvocation(kind: string): Meter {
  const meter = { kind, count: 0 };
  running.add(meter);
  return meter;
}

/** Stops counting it and keeps the peak per kind. */
export function endInvocation(meter: Meter): void {
  running.delete(meter);
  peaks.set(meter.kind, Math.max(peaks.get(meter.kind) ?? 0, meter.count));
}

/** Methods whose call is one subrequest, on any binding or object a binding hands out. */
const COUNTED = new Set([
  // D1 (a batch is one round trip); Workers AI's `run` too
  "run",
  "all",
  "first",
  "raw",
  "batch",
  "exec",
  // R2
  "get",
  "put",
  "head",
  "list",
  "delete",
  "createMultipartUpload",
  "uploadPart",
  "complete",
  "abort",
  // Queues
  "send",
  "sendBatch",
  // Workers AI, Vectorize, Media
  "upsert",
  "insert",
  "query",
  "getByIds",
  "deleteByIds",
  "describe",
  "response",
]);

/** Methods that hand out another object of the same binding, which is metered too. */
const HANDS_OUT = new Set([
  "prepare",
  "bind",
  "resumeMultipartUpload",
  "input",
  "transform",
  "output",
]);

/** Durable Object namespaces: every method call on a stub they give is a subrequest. */
const STUB_MAKERS = new Set(["get", "getByName"]);

/** `target` with every counted call adding one to the running invocations. */
export function metered<T extends object>(target: T, stubs = false): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      const value = Reflect.get(object, property, receiver);
      if (typeof value !== "function" || typeof property !== "string") return value;
      if (stubs) {
        return (...args: unknown[]) => {
          tick();
          return Reflect.apply(value, object, args);
        };
      }
      return (...args: unknown[]) => {
        const result = Reflect.apply(value, object, args);
        if (COUNTED.has(property)) tick();
        if (HANDS_OUT.has(property) && result !== null && typeof result === "object")
          return metered(result);
        return result;
      };
    },
  });
}

/** A Durable Object namespace whose stubs count every call. */
export function meteredNamespace<T extends object>(namespace: T): T {
  return new Proxy(namespace, {
    get(object, property, receiver) {
      const value = Reflect.get(object, property, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const result = Reflect.apply(value, object, args);
        return typeof property === "string" &&
          STUB_MAKERS.has(property) &&
          result !== null &&
          typeof result === "object"
          ? metered(result, true)
          : result;
      };
    },
  });
}

/** The peaks so far, by invocation kind (`fetch`, `queue:media-windows`, …). */
export function invocationPeaks(): Record<string, number> {
  return Object.fromEntries(peaks);
}
