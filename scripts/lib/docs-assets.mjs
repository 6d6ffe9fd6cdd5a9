// The interactive reference at /docs runs the Scalar API reference bundle pinned in
// package.json (@scalar/api-reference), served by the Worker as a static asset so /docs
// needs no network. Wrangler reads the assets folder at start, so every path that starts
// one (npm start/dev, the tests, deploy) copies the bundle first.
import { copyFileSync, existsSync, mkdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** The folder wrangler.toml's [assets] names. */
export const DOCS_ASSETS_DIR = path.join(ROOT, "dist", "docs-assets");
const SOURCE = path.join(ROOT, "node_modules/@scalar/api-reference/dist/browser/standalone.js");
/** Served at /docs/api-reference.js. */
const TARGET = path.join(DOCS_ASSETS_DIR, "docs", "api-reference.js");

/** Copies the pinned bundle into the assets folder unless an identical copy is there. */
export function prepareDocsAssets() {
  if (!existsSync(SOURCE)) throw new Error(`${SOURCE} is missing: run npm ci`);
  if (existsSync(TARGET) && statSync(TARGET).size === statSync(SOURCE).size) return;
  mkdirSync(path.dirname(TARGET), { recursive: true });
  copyFileSync(SOURCE, TARGET);
}
