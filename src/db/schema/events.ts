import { sql } from "drizzle-orm";
import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { workspaces } from "./workspaces";

/**
 * The event outbox: written in the same D1 batch as the change it announces, delivered
 * to webhook endpoints from here.
 */
export const events = sqliteTable(
  "events",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    type: text("type").notNull(),
    data: text("data", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    createdAt: text("created_at").notNull(),
    /** The request whose work the event announces; webhook attempts name it in a header. */
    requestId: text("request_id"),
    /** When the webhook dispatcher fanned the event out to its endpoints; null until then. */
    dispatchedAt: text("dispatched_at"),
  },
  (table) => [
    index("events_workspace_idx").on(table.workspaceId, table.id),
    index("events_undispatched_idx").on(table.id).where(sql`dispatched_at IS NULL`),
  ],
);
