import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { WorkflowOutputMode, WorkflowStatus } from "../../domain/workflows";
import { workspaces } from "./workspaces";

/**
 * A workflow: a rulebook's rule set, frozen at creation (`rule_set_version_id`), bound to
 * videos. Workflows belong to the workspace, not to an owner, so any key that may run
 * workflows can run it.
 */
export const workflows = sqliteTable(
  "workflows",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    name: text("name").notNull(),
    playbook: text("playbook").notNull(),
    rulebookId: text("rulebook_id").notNull(),
    ruleSetVersionId: text("rule_set_version_id").notNull(),
    sourceIds: text("source_ids", { mode: "json" }).$type<string[]>().notNull(),
    outputModes: text("output_modes", { mode: "json" }).$type<WorkflowOutputMode[]>().notNull(),
    status: text("status").$type<WorkflowStatus>().notNull(),
    templateType: text("template_type").notNull(),
    latestRunId: text("latest_run_id"),
    createdBy: text("created_by").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [index("workflows_workspace_idx").on(table.workspaceId, table.id)],
);
