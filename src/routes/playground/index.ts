import type { Hono } from "hono";
import type { HonoEnv } from "../../middleware/hono-env";
import { PLAYGROUND_CSS, PLAYGROUND_HTML } from "./page";
import { PLAYGROUND_SCRIPT } from "./script";

/**
 * The page's Content-Security-Policy: scripts, styles and API calls from this origin only;
 * uploads (PUT), thumbnails and clips also from the storage origin signed URLs point at.
 */
export function playgroundPolicy(storageOrigin: string): string {
  const storage = storageOrigin === "" ? "" : ` ${storageOrigin}`;
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `connect-src 'self'${storage}`,
    `img-src 'self'${storage}`,
    `media-src 'self'${storage}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** GET /playground (a page for trying the API in a browser) and its script and styles. */
export function registerPlaygroundRoutes(app: Hono<HonoEnv>): void {
  app.get("/playground", async (c) => {
    const origin = new URL(c.req.url).origin;
    // Whatever the storage adapter signs against (R2's S3 endpoint, or this Worker locally)
    // is the one other origin the page may reach; asked of the port, not configured twice.
    const expires = new Date(Date.now() + 60_000);
    const signed = await c.var.ports.storage.presignGet("playground", expires, { origin });
    const storage = new URL(signed).origin;
    return c.html(PLAYGROUND_HTML, 200, {
      "content-security-policy": playgroundPolicy(storage === origin ? "" : storage),
      "referrer-policy": "no-referrer",
      "x-content-type-options": "nosniff",
    });
  });
  app.get("/playground/app.js", (c) =>
    c.body(PLAYGROUND_SCRIPT, 200, {
      "content-type": "text/javascript; charset=utf-8",
      "cache-control": "no-cache",
    }),
  );
  app.get("/playground/app.css", (c) =>
    c.body(PLAYGROUND_CSS, 200, {
      "content-type": "text/css; charset=utf-8",
      "cache-control": "no-cache",
    }),
  );
}
