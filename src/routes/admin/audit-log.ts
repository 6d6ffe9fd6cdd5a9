import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { listAuditEntries, workspaceRowExists } from "../../db/repos/audit-log";
import {
  AUDIT_ACTIONS,
  AUDIT_RETENTION_DAYS,
  AUDIT_TARGETS,
  OPERATOR_ACTOR,
  RETENTION_ACTOR,
} from "../../domain/audit";
import { notFound } from "../../errors/api-error";
import { listScope, pageQuery, toPage } from "../../lib/pagination";
import type { HonoEnv } from "../../middleware/hono-env";
import { idParam, type SameShape, TimestampSchema } from "../../schemas/common";
import { PageQuerySchema, pageSchema } from "../../schemas/page";
import { type AuditEntryDto, presentAuditEntry } from "../../services/presenters/audit-entry";
import { problemResponses } from "../define";

const ActionSchema = z.enum(AUDIT_ACTIONS).openapi({
  description:
    "What was done. `workspace.*` and `api_key.*` come from the admin API, `webhook_endpoint.*` and `rulebook.deleted` from API keys, `video.deleted` from API keys or the retention sweep",
  example: "api_key.created",
});

const ChangeSchema = z
  .object({
    before: z.unknown().optional().openapi({ description: "The value before; absent on creation" }),
    after: z.unknown().optional().openapi({ description: "The value after; absent on deletion" }),
  })
  .openapi("AdminAuditChange");

/** One entry of a workspace's audit trail. */
const AuditEntrySchema = z
  .object({
    id: z.string().openapi({ example: "aud_01jd3m6t8y0c7x4k2n9q5r1s3v" }),
    workspace_id: z.string().openapi({ example: "ws_01jd3m6t8y0c7x4k2n9q5r1s3v" }),
    actor: z.string().openapi({
      description: `Who did it: an API key id (\`key_…\`) for the alpha API, \`${OPERATOR_ACTOR}\` for the admin API (its token names no one else), \`${RETENTION_ACTOR}\` for the retention sweep. Never a secret.`,
      example: OPERATOR_ACTOR,
    }),
    action: ActionSchema,
    target_type: z.enum(AUDIT_TARGETS).openapi({ example: "api_key" }),
    target_id: z.string().openapi({ example: "key_01jd3m6t8y0c7x4k2n9q5r1s3v" }),
    changes: z
      .record(z.string(), ChangeSchema)
      .nullable()
      .openapi({
        description:
          "The settings the action changed, each with its value before and after; null when the action is the whole story (a revocation, a deletion request). Never a secret; a webhook URL shows only its origin.",
        example: { retention_days: { before: null, after: 90 } },
      }),
    request_id: z.string().nullable().openapi({
      description: "The X-Request-Id of the request that made the change; null for the sweep",
      example: "0b6f1c9e-2f4a-4a7e-9a51-3f1f3c2d8e10",
    }),
    created_at: TimestampSchema,
  })
  .openapi("AdminAuditEntry");

const listAuditLogRoute = createRoute({
  method: "get",
  operationId: "listAuditLog",
  path: "/workspaces/{id}/audit-log",
  tags: ["Admin"],
  summary: "List a workspace's audit trail",
  description: `Changes to who may act in the workspace, where its data goes and what of it is kept: workspace settings, API keys, webhook endpoints, video and rulebook deletions and the workspace's deletion. Newest first. Each entry is written in the same transaction as its change and kept ${AUDIT_RETENTION_DAYS} days; a workspace being deleted keeps its trail until erasure ends, then it is erased with it.`,
  request: {
    params: z.object({ id: idParam("id", "ws_01jd3m6t8y0c7x4k2n9q5r1s3v") }),
    query: PageQuerySchema.extend({
      action: ActionSchema.optional().openapi({ description: "Only entries of this action" }),
    }),
  },
  responses: {
    200: {
      description: "A page of entries",
      content: {
        "application/json": { schema: pageSchema(AuditEntrySchema, "AdminAuditEntryPage") },
      },
    },
    ...problemResponses([400, 401, 404]),
  },
});

/** GET /admin/v1/workspaces/{id}/audit-log, paged like the other admin lists. */
export function registerAuditLog(app: OpenAPIHono<HonoEnv>) {
  app.openapi(listAuditLogRoute, async (c) => {
    const { id } = c.req.valid("param");
    const query = c.req.valid("query");
    const { db } = c.var.deps;
    const list = listScope(c.var.deps.secrets.signing(), "admin-audit-log", id, query.action);
    const page = await pageQuery(list, query);
    if (!(await workspaceRowExists(db, id))) throw notFound("Workspace", id);
    const rows = await listAuditEntries(db, id, { action: query.action }, page);
    return c.json(await toPage(list, rows, page.limit, (row) => [row.id], presentAuditEntry), 200);
  });
}

/** Fails to compile when the schema of an audit entry and its presenter's type drift apart. */
export const AUDIT_ENTRY_SCHEMA_MATCHES_PRESENTER: SameShape<
  z.infer<typeof AuditEntrySchema>,
  AuditEntryDto
> = true;
