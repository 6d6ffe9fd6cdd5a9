import type { AuthContext } from "../domain/caller";
import type { Env } from "../env";
import type { Ports } from "../ports";

/** Variables that middleware places on the Hono context. */
export interface Variables {
  requestId: string;
  auth: AuthContext;
  ports: Ports;
}

/** The Hono environment of the whole app. */
export interface HonoEnv {
  Bindings: Env;
  Variables: Variables;
}
