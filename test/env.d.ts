import type { D1Migration } from "cloudflare:test";
import type { Secrets } from "../src/env";

// The bindings come from worker-configuration.d.ts (wrangler types); tests add their own.
declare global {
  namespace Cloudflare {
    interface Env extends Secrets {
      TEST_MIGRATIONS: D1Migration[];
      ADMIN_TOKEN: string;
      /** Uploads of the windows contention test ("": its own 20; the bench asks for more). */
      CONTENTION_UPLOADS: string;
      /** Base URL of the loopback webhook receivers (test/node/webhook-receivers.ts). */
      WEBHOOK_RECEIVERS: string;
    }
  }
}
