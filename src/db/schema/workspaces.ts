import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { RateLimitOverrides } from "../../domain/rate-limits";

/** A tenant: every resource belongs to exactly one workspace. */
export const workspaces = sqliteTable(
  "workspaces",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    alphaOptIn: integer("alpha_opt_in", { mode: "boolean" }).notNull().default(false),
    /** Whether location and device tags are indexed (docs/decisions/private-container-tags.md). */
    indexPrivateTags: integer("index_private_tags", { mode: "boolean" }).notNull().default(false),
    /** Days a video is kept after its upload started; null keeps videos until deleted. */
    retentionDays: integer("retention_days"),
    /** The operator's own quotas per class; null: the defaults (docs/decisions/rate-limits.md). */
    rateLimits: text("rate_limits", { mode: "json" }).$type<RateLimitOverrides>(),
    createdAt: text("created_at").notNull(),
    /** Also moved by each step of a deleting workspace's erasure, so the sweep sees progress. */
    updatedAt: text("updated_at").notNull(),
    /**
     * When DELETE /admin/v1/workspaces/{id} was answered: from then on no key, admin read or
     * webhook sees the workspace, and erasure removes the row last.
     */
    deletedAt: text("deleted_at"),
  },
  (table) => [
    // The retention sweep walks only the workspaces that set a retention.
    index("workspaces_retention_idx").on(table.id).where(sql`${table.retentionDays} is not null`),
    // The sweep's query: deleting workspaces whose erasure made no progress within a lease.
    index("workspaces_deleting_idx").on(table.updatedAt).where(sql`deleted_at IS NOT NULL`),
  ],
);

/** API keys; only the SHA-256 of the secret is stored. */
export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    type: text("type", { enum: ["alpha", "standard"] }).notNull(),
    permissions: text("permissions", { mode: "json" }).$type<string[]>().notNull(),
    /**
     * The owner (`user_…`) the key acts for: rulebooks belong to it. Null on keys made
     * before owners existed, which act for an owner of their own (`ownerOfKey`).
     */
    ownerId: text("owner_id"),
    secretHash: text("secret_hash").notNull().unique(),
    start: text("start").notNull(),
    expiresAt: text("expires_at"),
    revokedAt: text("revoked_at"),
    createdAt: text("created_at").notNull(),
  },
  (table) => [index("api_keys_workspace_idx").on(table.workspaceId, table.id)],
);
