import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { findReport, findRun } from "../../db/repos/runs";
import { ApiError, notFound } from "../../errors/api-error";
import type { HonoEnv } from "../../middleware/hono-env";
import { idParam } from "../../schemas/common";
import { expandQuerySchema, parseExpand } from "../../schemas/expand";
import { EvidenceLinker } from "../../services/media/evidence-urls";
import { presentReport, reportContext } from "../../services/presenters/report";
import { readableContent } from "../../services/reports/read";
import { alphaRoute } from "../define";
import { prefersMarkdown } from "./accept";
import { REPORT_EXPANDABLE, ReportSchema } from "./schemas";

const route = alphaRoute(
  { permission: "VIEW_INSIGHTS", errors: [406] },
  {
    method: "get",
    operationId: "getReport",
    path: "/reports/{report_id}",
    tags: ["Reports"],
    summary: "Get a report",
    description:
      "One immutable report; `expand[]=content` adds the rendered content, `expand[]=manifest` the trust bindings with signed evidence URLs. A Markdown report asked for with `Accept: text/markdown` answers its Markdown itself (`text/markdown`); a JSON report then answers 406.",
    request: {
      params: z.object({ report_id: idParam("report_id", "rep_01jd3m6t8y0c7x4k2n9q5r1s3v") }),
      query: z.object({ "expand[]": expandQuerySchema(REPORT_EXPANDABLE) }),
    },
    responses: {
      200: {
        description: "The report, or with `Accept: text/markdown` a Markdown report's content",
        content: {
          "application/json": { schema: ReportSchema },
          "text/markdown": {
            schema: z.string().openapi({ example: "# Loading dock safety review\n…" }),
          },
        },
      },
    },
  },
);

/** GET /reports/{report_id} */
export function registerGetReport(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { report_id } = c.req.valid("param");
    const expand = parseExpand(c.req.url, REPORT_EXPANDABLE);
    const { db } = c.var.deps;
    const row = await findReport(db, c.var.auth.workspaceId, report_id);
    if (!row) throw notFound("Report", report_id);
    const run = await findRun(db, row.workspaceId, row.runId);
    if (!run) throw new Error(`the run of report ${row.id} is missing`);
    const linker = new EvidenceLinker(c.var.ports, new URL(c.req.url).origin);
    const context = await reportContext(c.var.deps, linker, run);
    if (prefersMarkdown(c.req.header("accept"))) {
      if (row.format !== "markdown") {
        throw new ApiError(
          "not-acceptable",
          `Report ${report_id} is ${row.format}, not Markdown; ask for application/json.`,
        );
      }
      const content = await readableContent(c.var.deps, row, run, context.deleted);
      return c.body(content, 200, { "content-type": "text/markdown; charset=utf-8" });
    }
    return c.json(await presentReport(row, expand, context), 200);
  });
}
