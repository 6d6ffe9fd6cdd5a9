import type { OpenAPIHono } from "@hono/zod-openapi";
import { findFinding, reviewFinding } from "../../db/repos/findings";
import { deletedVideoIds } from "../../db/repos/video-erasure";
import { notFound } from "../../errors/api-error";
import { nowIso } from "../../lib/clock";
import type { HonoEnv } from "../../middleware/hono-env";
import { EvidenceLinker } from "../../services/media/evidence-urls";
import { presentFinding } from "../../services/presenters/finding";
import { alphaRoute } from "../define";
import { FindingParamsSchema, FindingSchema, ReviewFindingBodySchema } from "./schemas";

const route = alphaRoute(
  { permission: "VIEW_INSIGHTS" },
  {
    method: "post",
    path: "/findings/{finding_id}/review",
    operationId: "reviewFinding",
    tags: ["Findings"],
    summary: "Review a finding",
    description:
      "Records a person's review: `status` (`open`, `confirmed`, `dismissed`, `resolved`) and an optional `note`; sets `reviewed_at` and `reviewed_by` (the key). The engine's `result_state` never changes. A later review replaces the earlier one.",
    request: {
      params: FindingParamsSchema,
      body: {
        required: true,
        content: { "application/json": { schema: ReviewFindingBodySchema } },
      },
    },
    responses: {
      200: {
        description: "The reviewed finding",
        content: { "application/json": { schema: FindingSchema } },
      },
    },
  },
);

/** POST /findings/{finding_id}/review */
export function registerReviewFinding(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { finding_id } = c.req.valid("param");
    const body = c.req.valid("json");
    const { db } = c.var.deps;
    const row = await findFinding(db, c.var.auth.workspaceId, finding_id);
    if (!row) throw notFound("Finding", finding_id);
    const now = nowIso();
    const review = {
      status: body.status,
      reviewNote: body.note ?? null,
      reviewedAt: now,
      reviewedBy: c.var.auth.keyId,
      updatedAt: now,
    };
    await reviewFinding(db, row.id, review);
    const linker = new EvidenceLinker(c.var.ports, new URL(c.req.url).origin);
    const deleted = await deletedVideoIds(db, row.workspaceId, [row.videoId]);
    return c.json(await presentFinding({ ...row, ...review }, linker, deleted), 200);
  });
}
