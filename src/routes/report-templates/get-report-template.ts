import type { OpenAPIHono } from "@hono/zod-openapi";
import { database } from "../../db/client";
import { findReportTemplateWithLatest } from "../../db/repos/report-templates";
import type { HonoEnv } from "../../env";
import { notFound } from "../../errors/api-error";
import { alphaRoute } from "../define";
import {
  presentReportTemplateWithLatest,
  ReportTemplateIdParamsSchema,
  ReportTemplateWithLatestSchema,
} from "./schemas";

const route = alphaRoute(
  { permission: "RUN_WORKFLOWS" },
  {
    method: "get",
    path: "/report-templates/{report_template_id}",
    tags: ["Report templates"],
    summary: "Get a report template",
    description:
      "The report template head with its lifecycle state and its latest version in full. Archived and anonymous report templates remain readable.",
    request: { params: ReportTemplateIdParamsSchema },
    responses: {
      200: {
        description: "The report template with its latest version",
        content: { "application/json": { schema: ReportTemplateWithLatestSchema } },
      },
    },
  },
);

/** GET /report-templates/{report_template_id} */
export function registerGetReportTemplate(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { report_template_id } = c.req.valid("param");
    const found = await findReportTemplateWithLatest(
      database(c.env.DB),
      c.var.auth.workspaceId,
      report_template_id,
    );
    if (!found) throw notFound("Report template", report_template_id);
    return c.json(presentReportTemplateWithLatest(found), 200);
  });
}
