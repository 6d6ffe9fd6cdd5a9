import type { AuthContext } from "../domain/caller";
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
  ports: Ports;
  /** D1, bucket, queues, adapters, secrets and clock, built once per request. */
  deps: Deps;
}

/** The Hono environment of the whole app. */
export interface HonoEnv {
  Bindings: Env;
  Variables: Variables;
}
