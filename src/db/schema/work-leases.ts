import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The crash sweep's bookkeeping for a video or run that is not final yet: how often the
 * sweep has re-sent its work and when it may look again. Written in the same batch as the
 * change it follows (run creation) or by the sweep itself; removed once the item is final.
 */
export const workLeases = sqliteTable(
  "work_leases",
  {
    subjectId: text("subject_id").primaryKey(),
    kind: text("kind", { enum: ["video", "run"] }).notNull(),
    /** Times the sweep re-sent this item's work. */
    attempts: integer("attempts").notNull().default(0),
    /** The sweep leaves the item alone until then (ISO 8601, like `updated_at`). */
    dueAt: text("due_at").notNull(),
  },
  (table) => [index("work_leases_kind_due_idx").on(table.kind, table.dueAt)],
);
