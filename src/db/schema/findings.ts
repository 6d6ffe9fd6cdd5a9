import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { ResultState } from "../../domain/answers";
import type {
  FindingEvidence,
  FindingMetadata,
  FindingSeverity,
  FindingStatus,
  FindingType,
} from "../../domain/findings";
import { runs } from "./runs";

/**
 * One finding per rule × video of a workflow run. (run, rule, video) is unique, so a
 * redelivered run writes the same rows again instead of adding any.
 */
export const findings = sqliteTable(
  "findings",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    runId: text("run_id")
      .notNull()
      .references(() => runs.id),
    workflowId: text("workflow_id").notNull(),
    videoId: text("video_id").notNull(),
    ruleId: text("rule_id").notNull(),
    ruleReference: text("rule_reference").notNull(),
    title: text("title").notNull(),
    description: text("description").notNull(),
    type: text("type").$type<FindingType>().notNull(),
    severity: text("severity").$type<FindingSeverity>().notNull(),
    status: text("status").$type<FindingStatus>().notNull(),
    resultState: text("result_state").$type<ResultState>().notNull(),
    summary: text("summary").notNull(),
    reasonCode: text("reason_code"),
    evidence: text("evidence", { mode: "json" }).$type<FindingEvidence[]>().notNull(),
    metadata: text("metadata", { mode: "json" }).$type<FindingMetadata>().notNull(),
    reviewNote: text("review_note"),
    reviewedAt: text("reviewed_at"),
    reviewedBy: text("reviewed_by"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [
    uniqueIndex("findings_run_rule_video_idx").on(table.runId, table.ruleId, table.videoId),
    index("findings_workspace_idx").on(table.workspaceId, table.id),
    index("findings_run_idx").on(table.runId, table.id),
  ],
);
