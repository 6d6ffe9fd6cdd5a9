import type { SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { nowIso } from "../../lib/clock";
import { newId } from "../../lib/ids";
import type { Database } from "../client";
import { insertWhere } from "../insert-where";
import { events } from "../schema";

/** An event row. */
export type EventRow = typeof events.$inferSelect;

/**
 * The statement that appends an event to the outbox (batch it with the change it announces).
 * With a `guard`, the event is appended only if the guard holds when the statement runs.
 */
export function insertEventStatement(
  db: Database,
  workspaceId: string,
  type: string,
  data: Record<string, unknown>,
  guard?: SQL,
): BatchItem<"sqlite"> {
  const row = { id: newId("evt"), workspaceId, type, data, createdAt: nowIso() };
  return guard ? insertWhere(db, events, [row], guard) : db.insert(events).values(row);
}
