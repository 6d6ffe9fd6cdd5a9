import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { findWorkspace, insertApiKey, revokeApiKey } from "../../db/repos/workspaces";
import { ownerOfKey } from "../../domain/rulebooks";
import { invalidRequest, notFound } from "../../errors/api-error";
import { nowIso } from "../../lib/clock";
import { newId } from "../../lib/ids";
import type { HonoEnv } from "../../middleware/hono-env";
import { idParam, TimestampSchema } from "../../schemas/common";
import { evictCachedKeys, mintKeySecret } from "../../services/access/keys";
import { presentKey } from "../../services/presenters/admin";
import { byOperator } from "../audited-by";
import { problemResponses } from "../define";
import { ApiKeySchema, OwnerIdSchema, PermissionNameSchema } from "./schemas";

const createKeyRoute = createRoute({
  method: "post",
  operationId: "createKey",
  path: "/keys",
  tags: ["Admin"],
  summary: "Create an API key (the secret is shown once)",
  request: {
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z.strictObject({
            workspace_id: z.string().min(1),
            type: z.enum(["alpha", "standard"]),
            permissions: z.array(PermissionNameSchema),
            expires_at: TimestampSchema.optional().openapi({
              description:
                "When the key stops working (401 from then on); must be in the future. Omitted: it never expires.",
            }),
            owner_id: OwnerIdSchema.optional().openapi({
              description:
                "The owner the key acts for. Rulebooks belong to an owner: give two keys the same owner_id (read it from an existing key) and both manage the same rulebooks. Omitted: the key acts for a new owner of its own.",
            }),
          }),
        },
      },
    },
  },
  responses: {
    201: {
      description: "The key, with its secret",
      content: { "application/json": { schema: ApiKeySchema } },
    },
    ...problemResponses([400, 401, 404, 413]),
  },
});

const revokeKeyRoute = createRoute({
  method: "delete",
  operationId: "revokeKey",
  path: "/keys/{id}",
  tags: ["Admin"],
  summary: "Revoke an API key",
  request: { params: z.object({ id: idParam("id", "key_01jd3m6t8y0c7x4k2n9q5r1s3v") }) },
  responses: {
    204: { description: "Revoked; the key answers 401 from now on" },
    ...problemResponses([401, 404]),
  },
});

/** POST /admin/v1/keys and DELETE /admin/v1/keys/{id}. */
export function registerKeyRoutes(app: OpenAPIHono<HonoEnv>) {
  app.openapi(createKeyRoute, async (c) => {
    const body = c.req.valid("json");
    const now = Date.now();
    const db = c.var.deps.db;
    if (!(await findWorkspace(db, body.workspace_id)))
      throw notFound("Workspace", body.workspace_id);
    // A key that would answer 401 from its first request is a mistake (a date in the wrong
    // year or zone), not a key anyone wants: refused, naming the field.
    if (body.expires_at !== undefined && Date.parse(body.expires_at) <= now)
      throw invalidRequest([{ path: "expires_at", message: "must be in the future" }]);
    const { secret, secretHash, start } = await mintKeySecret();
    const id = newId("key");
    const row = {
      id,
      ownerId: body.owner_id ?? ownerOfKey(id),
      workspaceId: body.workspace_id,
      type: body.type,
      permissions: [...new Set(body.permissions)],
      secretHash,
      start,
      expiresAt: body.expires_at === undefined ? null : new Date(body.expires_at).toISOString(),
      revokedAt: null,
      createdAt: nowIso(now),
    };
    await insertApiKey(db, row, byOperator(c));
    return c.json({ ...presentKey(row), key: secret }, 201);
  });

  app.openapi(revokeKeyRoute, async (c) => {
    const { id } = c.req.valid("param");
    const row = await revokeApiKey(c.var.deps.db, id, nowIso(), byOperator(c));
    if (!row) throw notFound("API key", id);
    evictCachedKeys({ keyId: id });
    return c.body(null, 204);
  });
}
