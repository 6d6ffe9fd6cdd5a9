import type { Ports } from "./ports";
import type { AuthContext } from "./services/auth";

/**
 * Bindings and variables of the Worker. Everything `wrangler.toml` declares comes from
 * `npm run types` (worker-configuration.d.ts, checked by `npm test`); secrets, which the
 * config does not name, are listed here.
 */
export type Env = Cloudflare.Env & Secrets;

/** The secrets of the Worker (`.dev.vars` locally, `wrangler secret put` in production). */
export interface Secrets {
  /** Operator token for /admin/v1; when unset the admin API answers 404. */
  ADMIN_TOKEN?: string;
  /** Secret for cursors, signed URLs and the local storage gateway. */
  SIGNING_SECRET?: string;
  /** Production only: the R2 S3 API key that signs upload targets. */
  R2_ACCESS_KEY_ID?: string;
  R2_SECRET_ACCESS_KEY?: string;
}

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
