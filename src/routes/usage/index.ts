import type { OpenAPIHono } from "@hono/zod-openapi";
import type { HonoEnv } from "../../middleware/hono-env";
import { registerGetUsage } from "./get-usage";

/** Registers the usage routes (permission VIEW_USAGE). */
export function registerUsageRoutes(app: OpenAPIHono<HonoEnv>) {
  registerGetUsage(app);
}
