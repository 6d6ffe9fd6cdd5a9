import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { workspaces } from "./workspaces";

/** Why an endpoint receives nothing: turned off by a user, answered 410, or failed 5 days. */
export type DisabledReason = "manual" | "gone" | "failing";

/** A workspace's webhook endpoint. Secrets are stored encrypted (services/webhooks/secrets). */
export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    url: text("url").notNull(),
    description: text("description"),
    eventTypes: text("event_types", { mode: "json" }).$type<string[]>().notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    disabledReason: text("disabled_reason").$type<DisabledReason>(),
    secret: text("secret").notNull(),
    /** The secret before the last rotation: deliveries carry both until it expires. */
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: text("previous_secret_expires_at"),
    /** Start of the current run of failed attempts; cleared by any success. */
    failingSince: text("failing_since"),
    /**
     * Since when the endpoint's attempts go to the slow lane (an attempt outlasted the fast
     * lane's timeout); cleared once one answers within it. Null: the fast lane.
     */
    slowSince: text("slow_since"),
    lastDeliveryId: text("last_delivery_id"),
    lastAttemptAt: text("last_attempt_at"),
    lastAttemptOutcome: text("last_attempt_outcome").$type<"succeeded" | "failed">(),
    lastResponseStatus: integer("last_response_status"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [index("webhook_endpoints_workspace_idx").on(table.workspaceId, table.id)],
);

/** One event bound for one endpoint: at most one per pair, whatever fans it out. */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    endpointId: text("endpoint_id").notNull(),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    /** The event's request id, so the delivery history shows which request caused it. */
    requestId: text("request_id"),
    status: text("status", { enum: ["pending", "delivered", "failed"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    responseStatus: integer("response_status"),
    /** When the next attempt is due (pending), or when the last one ran (final). */
    nextAttemptAt: text("next_attempt_at").notNull(),
    /** An attempt holds the delivery until this instant, so duplicates never overlap. */
    claimedUntil: text("claimed_until"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [
    uniqueIndex("webhook_deliveries_event_endpoint_idx").on(table.eventId, table.endpointId),
    index("webhook_deliveries_endpoint_idx").on(table.endpointId, table.id),
    index("webhook_deliveries_pending_idx").on(table.nextAttemptAt).where(sql`status = 'pending'`),
  ],
);

/** The attempt log of a delivery: never the response body, only its outcome. */
export const webhookAttempts = sqliteTable(
  "webhook_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    deliveryId: text("delivery_id").notNull(),
    attemptedAt: text("attempted_at").notNull(),
    responseStatus: integer("response_status"),
    durationMs: integer("duration_ms").notNull(),
    /** An AttemptError (services/webhooks/deliver.ts); null on success. */
    errorClass: text("error_class"),
  },
  (table) => [index("webhook_attempts_delivery_idx").on(table.deliveryId, table.id)],
);
