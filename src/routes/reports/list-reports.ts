import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { findRun, listReports } from "../../db/repos/runs";
import { notFound } from "../../errors/api-error";
import { listScope, pageQuery, toPage } from "../../lib/pagination";
import type { HonoEnv } from "../../middleware/hono-env";
import { expandQuerySchema, parseExpand } from "../../schemas/expand";
import { PageQuerySchema, pageSchema } from "../../schemas/page";
import { EvidenceLinker } from "../../services/media/evidence-urls";
import { presentReport, reportContext } from "../../services/presenters/report";
import { alphaRoute } from "../define";
import { REPORT_EXPANDABLE, ReportSchema } from "./schemas";

const route = alphaRoute(
  { permission: "VIEW_INSIGHTS" },
  {
    method: "get",
    operationId: "listReports",
    path: "/reports",
    tags: ["Reports"],
    summary: "List a run's reports",
    description: "The reports of one run, newest first.",
    request: {
      query: PageQuerySchema.extend({
        run_id: z.string().min(1).max(128).openapi({ description: "Required: the run" }),
        "expand[]": expandQuerySchema(REPORT_EXPANDABLE),
      }),
    },
    responses: {
      200: {
        description: "A page of reports",
        content: { "application/json": { schema: pageSchema(ReportSchema, "ReportListPage") } },
      },
    },
  },
);

/** GET /reports */
export function registerListReports(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const expand = parseExpand(c.req.url, REPORT_EXPANDABLE);
    const db = c.var.deps.db;
    const { workspaceId } = c.var.auth;
    const run = await findRun(db, workspaceId, query.run_id);
    if (!run) throw notFound("Run", query.run_id);
    const list = listScope(c.var.deps.secrets.signing(), "reports", workspaceId, query.run_id);
    const page = await pageQuery(list, query);
    const rows = await listReports(db, workspaceId, query.run_id, page);
    const envelope = await toPage(
      list,
      rows,
      page.limit,
      (row) => [row.id],
      (row) => row,
    );
    const linker = new EvidenceLinker(c.var.ports, new URL(c.req.url).origin);
    const context = await reportContext(c.var.deps, linker, run);
    return c.json(
      {
        ...envelope,
        data: await Promise.all(envelope.data.map((row) => presentReport(row, expand, context))),
      },
      200,
    );
  });
}
