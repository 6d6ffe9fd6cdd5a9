import { z } from "@hono/zod-openapi";
import { PERMISSIONS } from "../../domain/caller";
import { RATE_LIMIT_RANGE, RATE_WINDOW_SECONDS, type RateClass } from "../../domain/rate-limits";
import { type SameShape, TimestampSchema } from "../../schemas/common";
import type {
  ApiKeyDto,
  WorkspaceDeletionDto,
  WorkspaceDto,
} from "../../services/presenters/admin";

/** The longest retention a workspace may set: ten years; longer is "keep" (null). */
export const MAX_RETENTION_DAYS = 3650;

/** Days a workspace keeps each video from its upload's start; null keeps videos until deleted. */
export const RetentionDaysSchema = z
  .number()
  .int()
  .min(1)
  .max(MAX_RETENTION_DAYS)
  .nullable()
  .openapi({
    description: `Days each video is kept, counted from its \`created_at\` (the upload's start), 1-${MAX_RETENTION_DAYS}; the scheduled sweep deletes a video past it as DELETE /videos/{id} does, \`video.deleted\` included. null keeps videos until they are deleted.`,
    example: 90,
  });

const quota = z.number().int().min(RATE_LIMIT_RANGE.min).max(RATE_LIMIT_RANGE.max);

/** The requests per window a workspace may send in each operation class. */
const RateLimitsSchema = z
  .object({
    reads: quota,
    writes: quota,
    search: quota,
    uploads: quota,
  } satisfies Record<RateClass, typeof quota>)
  .openapi({
    description: `Requests per ${RATE_WINDOW_SECONDS} s the workspace may send in each operation class: its own where the operator set one, else the default`,
    example: { reads: 6000, writes: 1200, search: 10, uploads: 1200 },
  });

const quotaChange = quota.nullable().optional();

/**
 * A change to a workspace's rate limits, read as a JSON merge patch: a number sets the class's
 * quota, null returns it to the default, a class left out keeps what it has; `rate_limits:
 * null` returns every class to its default.
 */
export const RateLimitsPatchSchema = z
  .strictObject({
    reads: quotaChange,
    writes: quotaChange,
    search: quotaChange,
    uploads: quotaChange,
  } satisfies Record<RateClass, typeof quotaChange>)
  .nullable()
  .openapi({
    description: `Requests per ${RATE_WINDOW_SECONDS} s per operation class (${RATE_LIMIT_RANGE.min}-${RATE_LIMIT_RANGE.max}); null returns a class, or all of them, to the default`,
    example: { search: 10, reads: null },
  });

/** A workspace as the admin API shows it. */
export const WorkspaceSchema = z
  .object({
    id: z.string().openapi({ example: "ws_01jd3m6t8y0c7x4k2n9q5r1s3v" }),
    name: z.string().openapi({ example: "Acme Logistics" }),
    alpha_opt_in: z
      .boolean()
      .openapi({ description: "Whether the workspace may call the alpha API" }),
    index_private_tags: z.boolean().openapi({
      description:
        "Whether container tags that locate a person or identify a device (GPS, make, model, serial, owner) are indexed; false drops them before anything is stored",
    }),
    retention_days: RetentionDaysSchema,
    rate_limits: RateLimitsSchema,
    created_at: TimestampSchema,
  })
  .openapi("AdminWorkspace");

/** A workspace being deleted: what DELETE /admin/v1/workspaces/{id} answers until erasure ends. */
export const WorkspaceDeletionSchema = z
  .object({
    id: z.string().openapi({ example: "ws_01jd3m6t8y0c7x4k2n9q5r1s3v" }),
    name: z.string().openapi({ example: "Acme Logistics" }),
    status: z.literal("deleting").openapi({
      description:
        "Erasure runs in the background; once it has completed the workspace answers 404",
    }),
    deleted_at: TimestampSchema.openapi({
      description: "When the deletion was first asked; the same on every repeat",
    }),
  })
  .openapi("AdminWorkspaceDeletion");

/** An API key as the admin API shows it; `key` only on create. */
export const ApiKeySchema = z
  .object({
    id: z.string().openapi({ example: "key_01jd3m6t8y0c7x4k2n9q5r1s3v" }),
    key: z.string().optional().openapi({ description: "The secret, shown once on create" }),
    workspace_id: z.string(),
    type: z.enum(["alpha", "standard"]),
    permissions: z.array(z.string()),
    owner_id: z.string().openapi({
      description: "The owner the key acts for (rulebooks belong to owners)",
      example: "user_01jd3m6t8y0c7x4k2n9q5r1s3v",
    }),
    expires_at: TimestampSchema.nullable(),
    revoked_at: TimestampSchema.nullable().openapi({
      description: "When the key was revoked; null while it is not",
    }),
    created_at: TimestampSchema,
  })
  .openapi("AdminApiKey");

/** An owner id: `user_` and up to 64 letters, digits, `_` or `-`. */
export const OwnerIdSchema = z
  .string()
  .regex(/^user_[A-Za-z0-9_-]{1,64}$/, "must be user_ followed by 1-64 letters, digits, _ or -")
  .openapi({ example: "user_01jd3m6t8y0c7x4k2n9q5r1s3v" });

/** A permission name or `*` for all of them. */
export const PermissionNameSchema = z.enum([...PERMISSIONS, "*"]);

/** Fails to compile when the schema of a workspace and its presenter's type drift apart. */
export const WORKSPACE_SCHEMA_MATCHES_PRESENTER: SameShape<
  z.infer<typeof WorkspaceSchema>,
  WorkspaceDto
> = true;
/** Fails to compile when the schema of an API key and its presenter's type drift apart. */
export const API_KEY_SCHEMA_MATCHES_PRESENTER: SameShape<
  z.infer<typeof ApiKeySchema>,
  ApiKeyDto
> = true;
/** Fails to compile when the schema of a workspace deletion and its presenter's type drift apart. */
export const WORKSPACE_DELETION_SCHEMA_MATCHES_PRESENTER: SameShape<
  z.infer<typeof WorkspaceDeletionSchema>,
  WorkspaceDeletionDto
> = true;
