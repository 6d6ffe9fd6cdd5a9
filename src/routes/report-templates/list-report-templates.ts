import type { OpenAPIHono } from "@hono/zod-openapi";
import { database } from "../../db/client";
import { listReportTemplates } from "../../db/repos/report-templates";
import type { HonoEnv } from "../../env";
import { pageQuery, toPage } from "../../lib/pagination";
import { pageSchema } from "../../schemas/page";
import { signingSecret } from "../../services/secrets";
import { alphaRoute } from "../define";
import { ListHeadsQuerySchema } from "../profiles/heads";
import { presentReportTemplate, ReportTemplateSchema } from "./schemas";

const route = alphaRoute(
  { permission: "RUN_WORKFLOWS" },
  {
    method: "get",
    path: "/report-templates",
    tags: ["Report templates"],
    summary: "List report templates",
    description:
      "The workspace's named report templates, newest first: active ones unless `status=archived`. Anonymous report templates are not listed; read them by id.",
    request: { query: ListHeadsQuerySchema },
    responses: {
      200: {
        description: "A page of report template heads",
        content: {
          "application/json": { schema: pageSchema(ReportTemplateSchema, "ReportTemplatePage") },
        },
      },
    },
  },
);

/** GET /report-templates */
export function registerListReportTemplates(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const { workspaceId } = c.var.auth;
    const list = {
      secret: signingSecret(c.env),
      scope: `report-templates|${workspaceId}|${query.status}`,
    };
    const page = await pageQuery(list, query);
    const rows = await listReportTemplates(database(c.env.DB), workspaceId, query.status, page);
    return c.json(
      await toPage(list, rows, page.limit, (row) => [row.id], presentReportTemplate),
      200,
    );
  });
}
