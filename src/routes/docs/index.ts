// The pinned reference viewer itself, bundled into the Worker as a Text module
// (wrangler.toml [[rules]]), so /docs needs nothing but this origin.
import referenceBundle from "@scalar/api-reference/browser/standalone.js";
import { Scalar } from "@scalar/hono-api-reference";
import type { Hono } from "hono";
import { API_PREFIX } from "../../api-prefix";
import type { HonoEnv } from "../../middleware/hono-env";

/** Where /docs loads the reference viewer from. */
export const DOCS_SCRIPT_PATH = "/docs/api-reference.js";

/** GET /docs, the interactive reference of the alpha API, and the viewer it runs. */
export function registerDocsRoutes(app: Hono<HonoEnv>): void {
  app.get(
    "/docs",
    Scalar({
      url: `${API_PREFIX}/openapi.json`,
      pageTitle: "Video Analysis Service API",
      cdn: DOCS_SCRIPT_PATH,
      // Nothing that calls out: no AI agent (on by default for localhost), no telemetry,
      // no font CDN, no developer toolbar.
      agent: { disabled: true },
      telemetry: false,
      withDefaultFonts: false,
      showDeveloperTools: "never",
    }),
  );
  app.get(DOCS_SCRIPT_PATH, (c) =>
    c.body(referenceBundle, 200, {
      "content-type": "text/javascript; charset=utf-8",
      "cache-control": "public, max-age=3600",
    }),
  );
}
