import { index, integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { runs } from "./runs";

/**
 * One persisted step of a run: a few questions (profile specs, or rules over one video) that
 * one delivery answers, usually with one model call, and stores at once. A run executes as
 * these steps, claimed one after another by its lanes (queue messages), so no invocation holds
 * the whole run and a crash loses at most the steps in flight. The last step (`finish`) is
 * claimable once every other step is done: it renders the reports and completes the run.
 */
export const runSteps = sqliteTable(
  "run_steps",
  {
    runId: text("run_id")
      .notNull()
      .references(() => runs.id),
    /** 0-based; steps are claimed in this order. */
    position: integer("position").notNull(),
    kind: text("kind", { enum: ["answer", "finish"] }).notNull(),
    /** Workflow runs: the one video the step's rules are checked on; null otherwise. */
    videoId: text("video_id"),
    /** The step's questions: `count` specs (or rules) of the run from index `first`. */
    first: integer("first").notNull(),
    count: integer("count").notNull(),
    state: text("state", { enum: ["pending", "done"] }).notNull(),
    /** While a delivery works on the step, until when its claim holds (ISO 8601). */
    claimedUntil: text("claimed_until"),
    /** What the step spent, summed by SQL for the run's usage and budget. */
    inputTokens: integer("input_tokens").notNull().default(0),
    outputTokens: integer("output_tokens").notNull().default(0),
    cachedInputTokens: integer("cached_input_tokens").notNull().default(0),
    mediaSeconds: real("media_seconds").notNull().default(0),
    /** Model calls the step paid for (the bench reports calls per finding). */
    modelCalls: integer("model_calls").notNull().default(0),
    /** Run limitations the step met (`budget_exhausted`, …), as a JSON array. */
    limitations: text("limitations", { mode: "json" }).$type<string[]>().notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.runId, table.position] }),
    index("run_steps_state_idx").on(table.runId, table.state, table.position),
  ],
);
