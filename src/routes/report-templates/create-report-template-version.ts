import type { OpenAPIHono } from "@hono/zod-openapi";
import { database } from "../../db/client";
import { appendReportTemplateVersion } from "../../db/repos/report-templates";
import type { HonoEnv } from "../../env";
import { nowIso } from "../../lib/clock";
import { alphaRoute } from "../define";
import { versionRefused } from "../profiles/heads";
import {
  presentReportTemplateVersion,
  ReportTemplateIdParamsSchema,
  ReportTemplateVersionBodySchema,
  ReportTemplateVersionSchema,
  storedBlocks,
} from "./schemas";

const route = alphaRoute(
  { permission: "RUN_WORKFLOWS", idempotent: true, errors: [409] },
  {
    method: "post",
    path: "/report-templates/{report_template_id}/versions",
    tags: ["Report templates"],
    summary: "Add a report template version",
    description:
      "Appends the next immutable version (`latest_version` + 1) and makes it the latest. A report template holds at most 100 versions; archived and anonymous report templates take none. These answer 409 `conflict`. Parallel calls get consecutive versions.",
    request: {
      params: ReportTemplateIdParamsSchema,
      body: {
        required: true,
        content: { "application/json": { schema: ReportTemplateVersionBodySchema } },
      },
    },
    responses: {
      201: {
        description: "The new version",
        content: { "application/json": { schema: ReportTemplateVersionSchema } },
      },
    },
  },
);

/** POST /report-templates/{report_template_id}/versions */
export function registerCreateReportTemplateVersion(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { report_template_id } = c.req.valid("param");
    const body = c.req.valid("json");
    const result = await appendReportTemplateVersion(
      database(c.env.DB),
      c.var.auth.workspaceId,
      report_template_id,
      { language: body.language, blocks: storedBlocks(body.blocks) },
      { keyId: c.var.auth.keyId, at: nowIso() },
    );
    if (result.outcome !== "appended")
      throw versionRefused("Report template", report_template_id, result.outcome);
    return c.json(presentReportTemplateVersion(result.version), 201);
  });
}
