import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { listRuns } from "../../db/repos/runs";
import { listScope, pageQuery, toPage } from "../../lib/pagination";
import type { HonoEnv } from "../../middleware/hono-env";
import { PageQuerySchema, pageSchema } from "../../schemas/page";
import { presentRun } from "../../services/presenters/run";
import { alphaRoute } from "../define";
import { RUN_STATUSES, RunSchema } from "./schemas";

const route = alphaRoute(
  { permission: "VIEW_INSIGHTS" },
  {
    method: "get",
    operationId: "listRuns",
    path: "/runs",
    tags: ["Runs"],
    summary: "List runs",
    description: "Analysis and workflow runs of the workspace, newest first.",
    request: {
      query: PageQuerySchema.extend({
        video_id: z
          .string()
          .min(1)
          .max(128)
          .optional()
          .openapi({ description: "Runs whose source snapshot contains this video" }),
        status: z.enum(RUN_STATUSES).optional(),
      }),
    },
    responses: {
      200: {
        description: "A page of runs",
        content: { "application/json": { schema: pageSchema(RunSchema, "RunPage") } },
      },
    },
  },
);

/** GET /runs */
export function registerListRuns(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const { workspaceId } = c.var.auth;
    const list = listScope(
      c.var.deps.secrets.signing(),
      "runs",
      workspaceId,
      query.status,
      query.video_id,
    );
    const page = await pageQuery(list, query);
    const rows = await listRuns(
      c.var.deps.db,
      workspaceId,
      { status: query.status, videoId: query.video_id },
      page,
    );
    return c.json(
      await toPage(
        list,
        rows,
        page.limit,
        (row) => [row.id],
        (row) => presentRun(row),
      ),
      200,
    );
  });
}
