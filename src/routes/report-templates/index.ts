import type { OpenAPIHono } from "@hono/zod-openapi";
import type { HonoEnv } from "../../env";
import { registerArchiveReportTemplate } from "./archive-report-template";
import { registerCreateReportTemplate } from "./create-report-template";
import { registerCreateReportTemplateVersion } from "./create-report-template-version";
import { registerGetReportTemplate } from "./get-report-template";
import { registerGetReportTemplateVersion } from "./get-report-template-version";
import { registerListReportTemplates } from "./list-report-templates";

/** Registers the report template routes (spec section 4.4). */
export function registerReportTemplateRoutes(app: OpenAPIHono<HonoEnv>) {
  registerCreateReportTemplate(app);
  registerListReportTemplates(app);
  registerGetReportTemplate(app);
  registerCreateReportTemplateVersion(app);
  registerGetReportTemplateVersion(app);
  registerArchiveReportTemplate(app);
}
