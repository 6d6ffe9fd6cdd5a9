import type { OpenAPIHono } from "@hono/zod-openapi";
import type { HonoEnv } from "../../middleware/hono-env";
import { registerAbortUpload } from "./abort-upload";
import { registerCompleteUpload } from "./complete-upload";
import { registerCreateUpload } from "./create-upload";
import { registerGetUpload } from "./get-upload";
import { registerMintTargets } from "./mint-targets";
import { registerRecordParts } from "./record-parts";

/** Registers the upload routes (the spec's Videos and uploads section). */
export function registerUploadRoutes(app: OpenAPIHono<HonoEnv>) {
  registerCreateUpload(app);
  registerGetUpload(app);
  registerRecordParts(app);
  registerMintTargets(app);
  registerCompleteUpload(app);
  registerAbortUpload(app);
}
