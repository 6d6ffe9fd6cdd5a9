import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { findRun } from "../../db/repos/runs";
import { ApiError, notFound } from "../../errors/api-error";
import type { HonoEnv } from "../../middleware/hono-env";
import { expandQuerySchema, parseExpand } from "../../schemas/expand";
import { pageSchema } from "../../schemas/page";
import { EvidenceLinker } from "../../services/media/evidence-urls";
import { presentReport, reportContext } from "../../services/presenters/report";
import { createReports } from "../../services/reports/create-reports";
import { alphaRoute } from "../define";
import { InlineTemplateSchema } from "../report-templates/schemas";
import { RunIdParamsSchema } from "../runs/schemas";
import { REPORT_EXPANDABLE, ReportSchema } from "./schemas";

const CreateReportsBodySchema = z
  .strictObject({
    formats: z
      .array(z.enum(["json", "markdown"]))
      .min(1)
      .max(2)
      .openapi({ description: "One report per format" }),
    report_template: InlineTemplateSchema.optional().openapi({
      description:
        "An inline template (id, language, version, blocks); default: the run's template, else one block per answer",
    }),
  })
  .openapi("CreateReportsRequest");

const route = alphaRoute(
  { permission: "RUN_WORKFLOWS", errors: [409] },
  {
    method: "post",
    operationId: "createReports",
    path: "/runs/{run_id}/reports",
    tags: ["Reports"],
    summary: "Render reports of a run",
    description:
      "Renders the completed run's stored answers (no re-analysis) into immutable reports, one per format, from an inline template, the run's template version, or the default. The same answers and template give byte-identical content (see content_identity). A run that is not completed answers 409.",
    request: {
      params: RunIdParamsSchema,
      query: z.object({ "expand[]": expandQuerySchema(REPORT_EXPANDABLE) }),
      body: {
        required: true,
        content: { "application/json": { schema: CreateReportsBodySchema } },
      },
    },
    responses: {
      201: {
        description: "The reports, one per format (next_cursor null)",
        content: { "application/json": { schema: pageSchema(ReportSchema, "ReportPage") } },
      },
    },
  },
);

/** POST /runs/{run_id}/reports */
export function registerCreateReports(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { run_id } = c.req.valid("param");
    const body = c.req.valid("json");
    const expand = parseExpand(c.req.url, REPORT_EXPANDABLE);
    const run = await findRun(c.var.deps.db, c.var.auth.workspaceId, run_id);
    if (!run) throw notFound("Run", run_id);
    if (run.status !== "completed")
      throw new ApiError(
        "conflict",
        `Run ${run_id} is ${run.status}; reports render completed runs.`,
      );
    const template = body.report_template;
    const rows = await createReports(c.var.deps, run, {
      formats: [...new Set(body.formats)],
      requestId: c.var.requestId,
      ...(template
        ? {
            inlineTemplate: {
              id: template.id ?? "inline",
              version: template.version ?? 1,
              language: template.language,
              blocks: template.blocks,
            },
          }
        : {}),
    });
    const linker = new EvidenceLinker(c.var.ports, new URL(c.req.url).origin);
    const context = await reportContext(c.var.deps, linker, run);
    const data = await Promise.all(rows.map((row) => presentReport(row, expand, context)));
    return c.json({ data, has_more: false, next_cursor: null }, 201);
  });
}
