import type { OpenAPIHono } from "@hono/zod-openapi";
import { findFinding } from "../../db/repos/findings";
import { deletedVideoIds } from "../../db/repos/video-erasure";
import { notFound } from "../../errors/api-error";
import type { HonoEnv } from "../../middleware/hono-env";
import { EvidenceLinker } from "../../services/media/evidence-urls";
import { presentFinding } from "../../services/presenters/finding";
import { alphaRoute } from "../define";
import { FindingParamsSchema, FindingSchema } from "./schemas";

const route = alphaRoute(
  { permission: "VIEW_INSIGHTS" },
  {
    method: "get",
    path: "/findings/{finding_id}",
    operationId: "getFinding",
    tags: ["Findings"],
    summary: "Get a finding",
    description:
      "One finding with all its evidence, each span with a signed `clip_url`; another workspace's answers 404.",
    request: { params: FindingParamsSchema },
    responses: {
      200: {
        description: "The finding",
        content: { "application/json": { schema: FindingSchema } },
      },
    },
  },
);

/** GET /findings/{finding_id} */
export function registerGetFinding(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { finding_id } = c.req.valid("param");
    const row = await findFinding(c.var.deps.db, c.var.auth.workspaceId, finding_id);
    if (!row) throw notFound("Finding", finding_id);
    const linker = new EvidenceLinker(c.var.ports, new URL(c.req.url).origin);
    const deleted = await deletedVideoIds(c.var.deps.db, row.workspaceId, [row.videoId]);
    return c.json(await presentFinding(row, linker, deleted), 200);
  });
}
