import type { AuthContext } from "../domain/caller";
import type { RateClass } from "../domain/rate-limits";
import type { Env } from "../env";
import type { Logger } from "../lib/log";
import type { Ports } from "../ports";
import type { Deps } from "../services/deps";

/** Variables that middleware places on the Hono context. */
export interface Variables {
  requestId: string;
  /** Log lines of this request, each carrying its `request_id`. */
  log: Logger;
  auth: AuthContext;
  /** The caller's workspace's requests per window in each operation class. */
  rateLimits: Readonly<Record<RateClass, number>>;
  ports: Ports;
  /** D1, bucket, queues, adapters, secrets and clock, built once per request. */
  deps: Deps;
}

/** The Hono environment of the whole app. */
export interface HonoEnv {
  Bindings: Env;
  Variables: Variables;
}
