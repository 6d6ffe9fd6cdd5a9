import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { database } from "../../db/client";
import { findReportTemplateVersion } from "../../db/repos/report-templates";
import type { HonoEnv } from "../../env";
import { notFound } from "../../errors/api-error";
import { alphaRoute } from "../define";
import { VersionParamSchema } from "../profiles/heads";
import {
  presentReportTemplateVersion,
  ReportTemplateIdParamsSchema,
  ReportTemplateVersionSchema,
} from "./schemas";

const route = alphaRoute(
  { permission: "RUN_WORKFLOWS" },
  {
    method: "get",
    path: "/report-templates/{report_template_id}/versions/{version}",
    tags: ["Report templates"],
    summary: "Get a report template version",
    description: "One immutable version of a report template, archived or not.",
    request: {
      params: z.object({ ...ReportTemplateIdParamsSchema.shape, version: VersionParamSchema }),
    },
    responses: {
      200: {
        description: "The version",
        content: { "application/json": { schema: ReportTemplateVersionSchema } },
      },
    },
  },
);

/** GET /report-templates/{report_template_id}/versions/{version} */
export function registerGetReportTemplateVersion(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { report_template_id, version } = c.req.valid("param");
    const row = await findReportTemplateVersion(
      database(c.env.DB),
      c.var.auth.workspaceId,
      report_template_id,
      version,
    );
    if (!row) throw notFound("Report template version", `${report_template_id}@${version}`);
    return c.json(presentReportTemplateVersion(row), 200);
  });
}
