import type { BatchItem } from "drizzle-orm/batch";
import { nowIso } from "../../lib/clock";
import { newId } from "../../lib/ids";
import type { Database } from "../client";
import { events } from "../schema";

/** An event row. */
export type EventRow = typeof events.$inferSelect;

/** The statement that appends an event to the outbox (batch it with the change it announces). */
export function insertEventStatement(
  db: Database,
  workspaceId: string,
  type: string,
  data: Record<string, unknown>,
): BatchItem<"sqlite"> {
  return db
    .insert(events)
    .values({ id: newId("evt"), workspaceId, type, data, createdAt: nowIso() });
}
