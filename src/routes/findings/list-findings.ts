import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { listFindings } from "../../db/repos/findings";
import { deletedVideoIds } from "../../db/repos/video-erasure";
import { RESULT_STATES } from "../../domain/answers";
import { listScope, pageQuery, toPage } from "../../lib/pagination";
import type { HonoEnv } from "../../middleware/hono-env";
import { PageQuerySchema, pageSchema } from "../../schemas/page";
import { type FindingDto, presentFinding } from "../../services/presenters/finding";
import { alphaRoute } from "../define";
import { FindingSchema } from "./schemas";

const id = z.string().min(1).max(128).optional();

const route = alphaRoute(
  { permission: "VIEW_INSIGHTS" },
  {
    method: "get",
    path: "/findings",
    operationId: "listFindings",
    tags: ["Findings"],
    summary: "List findings",
    description:
      "The workspace's findings, newest first, filtered by run, video and result state. Items carry `evidence_ids` and an empty `evidence`; GET /findings/{finding_id} has the spans.",
    request: {
      query: PageQuerySchema.extend({
        run_id: id,
        video_id: id,
        result_state: z.enum(RESULT_STATES).optional(),
      }),
    },
    responses: {
      200: {
        description: "A page of findings",
        content: { "application/json": { schema: pageSchema(FindingSchema, "FindingPage") } },
      },
    },
  },
);

/** GET /findings */
export function registerListFindings(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const { workspaceId } = c.var.auth;
    const list = listScope(
      c.var.deps.secrets.signing(),
      "findings",
      workspaceId,
      query.run_id,
      query.video_id,
      query.result_state,
    );
    const page = await pageQuery(list, query);
    const rows = await listFindings(
      c.var.deps.db,
      workspaceId,
      { runId: query.run_id, videoId: query.video_id, resultState: query.result_state },
      page,
    );
    const items = new Map<string, FindingDto>();
    const deleted = await deletedVideoIds(
      c.var.deps.db,
      workspaceId,
      rows.map((row) => row.videoId),
    );
    for (const row of rows) items.set(row.id, await presentFinding(row, null, deleted));
    return c.json(
      await toPage(
        list,
        rows,
        page.limit,
        (row) => [row.id],
        (row) => items.get(row.id) as FindingDto,
      ),
      200,
    );
  });
}
