import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { insertWorkspace, updateWorkspace } from "../../db/repos/workspaces";
import { notFound } from "../../errors/api-error";
import { nowIso } from "../../lib/clock";
import { newId } from "../../lib/ids";
import type { HonoEnv } from "../../middleware/hono-env";
import { idParam } from "../../schemas/common";
import { evictCachedKeys } from "../../services/access/keys";
import { presentWorkspace } from "../../services/presenters/admin";
import { byOperator } from "../audited-by";
import { problemResponses } from "../define";
import {
  MAX_RETENTION_DAYS,
  RateLimitsPatchSchema,
  RetentionDaysSchema,
  WorkspaceSchema,
} from "./schemas";

const createWorkspaceRoute = createRoute({
  method: "post",
  operationId: "createWorkspace",
  path: "/workspaces",
  tags: ["Admin"],
  summary: "Create a workspace",
  request: {
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z.strictObject({
            name: z.string().trim().min(1).max(200),
            alpha_opt_in: z.boolean().default(false),
            index_private_tags: z.boolean().default(false).openapi({
              description:
                "Index location and device container tags of this workspace's videos (default false)",
            }),
            retention_days: RetentionDaysSchema.default(null),
          }),
        },
      },
    },
  },
  responses: {
    201: {
      description: "The workspace",
      content: { "application/json": { schema: WorkspaceSchema } },
    },
    ...problemResponses([400, 401, 404, 413]),
  },
});

const updateWorkspaceRoute = createRoute({
  method: "patch",
  operationId: "updateWorkspace",
  path: "/workspaces/{id}",
  tags: ["Admin"],
  summary: "Change a workspace (alpha opt-in, private tags, retention, name, rate limits)",
  request: {
    params: z.object({ id: idParam("id", "ws_01jd3m6t8y0c7x4k2n9q5r1s3v") }),
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z
            .strictObject({
              alpha_opt_in: z.boolean().optional(),
              index_private_tags: z.boolean().optional().openapi({
                description:
                  "Index location and device container tags of videos processed from now on",
              }),
              retention_days: RetentionDaysSchema.optional().openapi({
                description: `Days each video is kept from its upload's start (1-${MAX_RETENTION_DAYS}), null to keep videos until deleted; a shorter retention applies to existing videos at the next sweep`,
              }),
              name: z.string().trim().min(1).max(200).optional(),
              rate_limits: RateLimitsPatchSchema.optional(),
            })
            .refine(
              (body) =>
                body.alpha_opt_in !== undefined ||
                body.index_private_tags !== undefined ||
                body.retention_days !== undefined ||
                body.name !== undefined ||
                body.rate_limits !== undefined,
              {
                message:
                  "alpha_opt_in, index_private_tags, retention_days, name or rate_limits is required",
                path: ["alpha_opt_in"],
              },
            ),
        },
      },
    },
  },
  responses: {
    200: {
      description: "The workspace",
      content: { "application/json": { schema: WorkspaceSchema } },
    },
    ...problemResponses([400, 401, 404, 413]),
  },
});

/** POST /admin/v1/workspaces and PATCH /admin/v1/workspaces/{id}. */
export function registerWorkspaceRoutes(app: OpenAPIHono<HonoEnv>) {
  app.openapi(createWorkspaceRoute, async (c) => {
    const body = c.req.valid("json");
    const now = nowIso();
    const row = {
      id: newId("ws"),
      name: body.name,
      alphaOptIn: body.alpha_opt_in,
      indexPrivateTags: body.index_private_tags,
      retentionDays: body.retention_days,
      rateLimits: null,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    };
    await insertWorkspace(c.var.deps.db, row, byOperator(c));
    return c.json(presentWorkspace(row), 201);
  });

  app.openapi(updateWorkspaceRoute, async (c) => {
    const { id } = c.req.valid("param");
    const body = c.req.valid("json");
    const row = await updateWorkspace(
      c.var.deps.db,
      id,
      {
        alphaOptIn: body.alpha_opt_in,
        indexPrivateTags: body.index_private_tags,
        retentionDays: body.retention_days,
        name: body.name,
        rateLimits: body.rate_limits,
        updatedAt: nowIso(),
      },
      byOperator(c),
    );
    if (!row) throw notFound("Workspace", id);
    evictCachedKeys({ workspaceId: id });
    return c.json(presentWorkspace(row), 200);
  });
}
