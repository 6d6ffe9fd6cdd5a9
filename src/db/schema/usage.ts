import { primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { UsageMetric } from "../../domain/usage";
import { videos } from "./videos";
import { workspaces } from "./workspaces";

/**
 * A workspace's usage, one row per UTC day, counter and key (a model id, or ""). Every row is
 * added to in the same D1 batch as the guarded change that makes the thing happen once, so a
 * redelivery counts nothing twice. Deleting a video leaves it; erasing the workspace ends it.
 */
export const usageDaily = sqliteTable(
  "usage_daily",
  {
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    /** `YYYY-MM-DD`, UTC. */
    day: text("day").notNull(),
    metric: text("metric").$type<UsageMetric>().notNull(),
    key: text("key").notNull().default(""),
    value: real("value").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.workspaceId, table.day, table.metric, table.key] })],
);

/** What processing a video used, by counter and key; added to with the workspace's rollup. */
export const videoUsage = sqliteTable(
  "video_usage",
  {
    videoId: text("video_id")
      .notNull()
      .references(() => videos.id),
    metric: text("metric").$type<UsageMetric>().notNull(),
    key: text("key").notNull().default(""),
    value: real("value").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.videoId, table.metric, table.key] })],
);
