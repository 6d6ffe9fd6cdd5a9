import type { OpenAPIHono } from "@hono/zod-openapi";
import type { HonoEnv } from "../../middleware/hono-env";
import { registerCreateReports } from "./create-reports";
import { registerGetReport } from "./get-report";
import { registerListReports } from "./list-reports";

/** Registers the report routes (spec sections 4.1 and 4.3). */
export function registerReportRoutes(app: OpenAPIHono<HonoEnv>) {
  registerCreateReports(app);
  registerListReports(app);
  registerGetReport(app);
}
