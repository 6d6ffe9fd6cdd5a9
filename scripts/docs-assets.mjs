// Copies the pinned API reference bundle into the Worker's assets folder (see lib/docs-assets.mjs).
import { prepareDocsAssets } from "./lib/docs-assets.mjs";

prepareDocsAssets();
