import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { videos } from "./videos";

/**
 * One piece of a video's understanding that runs in its own invocation (a stretch of audio,
 * a batch of frames): its plan, and its result once done. A crash loses at most the windows
 * in flight; the sweep finds the pending ones here and sends them again.
 */
export const mediaWindows = sqliteTable(
  "media_windows",
  {
    videoId: text("video_id")
      .notNull()
      .references(() => videos.id),
    /** 0-based, in plan order. */
    position: integer("position").notNull(),
    kind: text("kind", { enum: ["audio", "frames"] }).notNull(),
    /** What to do: the engine's own plan of this window (JSON). */
    plan: text("plan", { mode: "json" }).$type<unknown>().notNull(),
    state: text("state", { enum: ["pending", "done"] }).notNull(),
    /** What the engine extracted (JSON); null while pending. */
    result: text("result", { mode: "json" }).$type<unknown>(),
    /**
     * While a delivery works on the window, until when its claim holds (ISO 8601): another
     * delivery of the same window leaves it alone until then, so no model call is paid twice.
     */
    claimedUntil: text("claimed_until"),
    /**
     * Which delivery holds the claim (a random id per delivery): only that delivery extends or
     * gives back its claim, never one a later delivery took over once it ran out.
     */
    claimedBy: text("claimed_by"),
    /**
     * Parts of the window already done by earlier deliveries (JSON, the engine's own, by key:
     * a frames window's described frames), so a retry pays only for what is missing; null when
     * none, and once the window is done.
     */
    parts: text("parts", { mode: "json" }).$type<Record<string, unknown>>(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.videoId, table.position] }),
    index("media_windows_state_idx").on(table.videoId, table.state),
  ],
);
