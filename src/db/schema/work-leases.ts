import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The crash sweep's bookkeeping for a video or run that is not final yet: how often the
 * sweep has re-sent its work and when that work was last active. Written in the same batch as the
 * change it follows (run creation) or by the sweep itself; removed once the item is final.
 */
export const workLeases = sqliteTable(
  "work_leases",
  {
    subjectId: text("subject_id").primaryKey(),
    kind: text("kind", { enum: ["video", "run"] }).notNull(),
    /** Times the sweep re-sent this item's work. */
    attempts: integer("attempts").notNull().default(0),
    /**
     * When the item's work last started, was re-sent, or is due to start (a deferred run);
     * the lease runs from the later of this and the item's `updated_at` (ISO 8601).
     */
    activeFrom: text("active_from").notNull(),
    /**
     * When the sweep last re-sent the work. Work picked up since renews `active_from` past it;
     * a re-send that was never picked up (its message still waits behind a backlog) is not
     * counted as a failed attempt when the sweep finds the item stale again.
     */
    resentAt: text("resent_at"),
  },
  (table) => [index("work_leases_kind_active_idx").on(table.kind, table.activeFrom)],
);
