import type { OpenAPIHono } from "@hono/zod-openapi";
import type { HonoEnv } from "../../middleware/hono-env";
import { registerCreateCsvImport } from "./create-csv-import";
import { registerCreateRulebook } from "./create-rulebook";
import { registerDeleteRulebook } from "./delete-rulebook";
import { registerGetRulebook } from "./get-rulebook";
import { registerListRulebooks } from "./list-rulebooks";
import { registerPreviewCsvImport } from "./preview-csv-import";
import { registerUpdateRulebook } from "./update-rulebook";

/** Registers the rulebook routes (permission MANAGE_RULEBOOKS). */
export function registerRulebookRoutes(app: OpenAPIHono<HonoEnv>) {
  registerListRulebooks(app);
  registerCreateRulebook(app);
  registerPreviewCsvImport(app);
  registerCreateCsvImport(app);
  registerGetRulebook(app);
  registerUpdateRulebook(app);
  registerDeleteRulebook(app);
}
