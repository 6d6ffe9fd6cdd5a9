import type { OpenAPIHono } from "@hono/zod-openapi";
import { database } from "../../db/client";
import { archiveReportTemplate } from "../../db/repos/report-templates";
import type { HonoEnv } from "../../env";
import { notFound } from "../../errors/api-error";
import { nowIso } from "../../lib/clock";
import { alphaRoute } from "../define";
import { ArchiveBodySchema } from "../profiles/heads";
import {
  presentReportTemplateWithLatest,
  ReportTemplateIdParamsSchema,
  ReportTemplateWithLatestSchema,
} from "./schemas";

const route = alphaRoute(
  { permission: "RUN_WORKFLOWS", idempotent: true, errors: [409] },
  {
    method: "post",
    path: "/report-templates/{report_template_id}/archive",
    tags: ["Report templates"],
    summary: "Archive a report template",
    description:
      "Archives the report template: it stays readable (with every version) and listed under `status=archived`, but takes no new versions. Archiving an archived report template changes nothing and answers it again.",
    request: {
      params: ReportTemplateIdParamsSchema,
      body: {
        required: false,
        content: { "application/json": { schema: ArchiveBodySchema } },
      },
    },
    responses: {
      200: {
        description: "The archived report template",
        content: { "application/json": { schema: ReportTemplateWithLatestSchema } },
      },
    },
  },
);

/** POST /report-templates/{report_template_id}/archive */
export function registerArchiveReportTemplate(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { report_template_id } = c.req.valid("param");
    const found = await archiveReportTemplate(
      database(c.env.DB),
      c.var.auth.workspaceId,
      report_template_id,
      {
        keyId: c.var.auth.keyId,
        at: nowIso(),
      },
    );
    if (!found) throw notFound("Report template", report_template_id);
    return c.json(presentReportTemplateWithLatest(found), 200);
  });
}
