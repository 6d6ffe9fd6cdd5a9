import type { SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { nowIso } from "../../lib/clock";
import { newId } from "../../lib/ids";
import type { Database } from "../client";
import { insertWhere } from "../insert-where";
import { events } from "../schema";

/** An event row. */
export type EventRow = typeof events.$inferSelect;

/** What an event says: its type and data, its workspace and the request whose work it ends. */
export interface NewEvent {
  workspaceId: string;
  type: string;
  data: Record<string, unknown>;
  /** Null only for work no request caused (or caused before requests were recorded). */
  requestId: string | null;
}

/**
 * The statement that appends an event to the outbox (batch it with the change it announces).
 * With a `guard`, the event is appended only if the guard holds when the statement runs.
 */
export function insertEventStatement(
  db: Database,
  event: NewEvent,
  guard?: SQL,
): BatchItem<"sqlite"> {
  const row = { id: newId("evt"), ...event, createdAt: nowIso() };
  return guard ? insertWhere(db, events, [row], guard) : db.insert(events).values(row);
}
