import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { AnswerPayload, AnswerType, ResultState } from "../../domain/answers";
import type { StoredError } from "../../domain/async-errors";
import type { ExecutionProfileRef } from "../../domain/execution-profiles";
import type { RunUsage } from "../../domain/runs";
import { workspaces } from "./workspaces";

/** An analysis (or workflow) run: the row lists and reads come from. */
export const runs = sqliteTable(
  "runs",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    kind: text("kind", { enum: ["analysis", "workflow"] }).notNull(),
    status: text("status", {
      enum: ["queued", "processing", "completed", "failed", "canceled"],
    }).notNull(),
    subState: text("sub_state", {
      enum: ["accepted", "running", "completed", "failed", "canceled"],
    }).notNull(),
    sourceIds: text("source_ids", { mode: "json" }).$type<string[]>().notNull(),
    executionProfileRef: text("execution_profile_ref").$type<ExecutionProfileRef>().notNull(),
    locale: text("locale").notNull(),
    /** Analysis runs: the profile version they answer (null on workflow runs). */
    profileId: text("profile_id"),
    profileVersion: integer("profile_version"),
    reportTemplateId: text("report_template_id"),
    reportTemplateVersion: integer("report_template_version"),
    formats: text("formats", { mode: "json" }).$type<("json" | "markdown")[]>().notNull(),
    profileSnapshotId: text("profile_snapshot_id").notNull(),
    inputSnapshotId: text("input_snapshot_id").notNull(),
    outputSnapshotId: text("output_snapshot_id"),
    cancelRequested: integer("cancel_requested", { mode: "boolean" }).notNull().default(false),
    resultState: text("result_state").$type<ResultState | "error">(),
    reasonCode: text("reason_code"),
    limitations: text("limitations", { mode: "json" }).$type<string[]>().notNull(),
    error: text("error", { mode: "json" }).$type<StoredError>(),
    usage: text("usage", { mode: "json" }).$type<RunUsage>(),
    engine: text("engine"),
    /**
     * Workflow runs: the workflow, its rulebook and the immutable rule set version checked,
     * the run's summary line and its report, once made (all null on analysis runs).
     */
    workflowId: text("workflow_id"),
    rulebookId: text("rulebook_id"),
    ruleSetVersionId: text("rule_set_version_id"),
    summary: text("summary"),
    reportId: text("report_id"),
    requestId: text("request_id").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [
    index("runs_workspace_idx").on(table.workspaceId, table.id),
    index("runs_workspace_status_idx").on(table.workspaceId, table.status, table.id),
    // The crash sweep's query: unfinished runs of every workspace, least recently updated.
    index("runs_status_updated_idx").on(table.status, table.updatedAt),
  ],
);

/** Immutable documents a run recorded: its resolved profile, its inputs, its outputs. */
export const runSnapshots = sqliteTable(
  "run_snapshots",
  {
    id: text("id").primaryKey(),
    runId: text("run_id")
      .notNull()
      .references(() => runs.id),
    kind: text("kind", { enum: ["profile", "input", "output"] }).notNull(),
    content: text("content", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    createdAt: text("created_at").notNull(),
  },
  (table) => [index("run_snapshots_run_idx").on(table.runId)],
);

/** The answers of a run, one per answer spec of its profile version. */
export const answers = sqliteTable(
  "answers",
  {
    id: text("id").primaryKey(),
    runId: text("run_id")
      .notNull()
      .references(() => runs.id),
    workspaceId: text("workspace_id").notNull(),
    position: integer("position").notNull(),
    key: text("key").notNull(),
    type: text("type").$type<AnswerType>().notNull(),
    resultState: text("result_state").$type<ResultState>().notNull(),
    coverage: text("coverage", { mode: "json" })
      .$type<{ state: string; scope: string }>()
      .notNull(),
    eventCount: integer("event_count").notNull(),
    evidenceCount: integer("evidence_count").notNull(),
    payload: text("payload", { mode: "json" }).$type<AnswerPayload>().notNull(),
    reasonCode: text("reason_code"),
    provenance: text("provenance", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    createdAt: text("created_at").notNull(),
  },
  (table) => [
    uniqueIndex("answers_run_key_idx").on(table.runId, table.key),
    index("answers_run_idx").on(table.runId, table.position),
  ],
);

/** Immutable rendered reports; the bytes live in R2. */
export const reports = sqliteTable(
  "reports",
  {
    id: text("id").primaryKey(),
    runId: text("run_id")
      .notNull()
      .references(() => runs.id),
    workspaceId: text("workspace_id").notNull(),
    requestId: text("request_id").notNull(),
    format: text("format", { enum: ["json", "markdown"] }).notNull(),
    contentType: text("content_type").notNull(),
    objectKey: text("object_key").notNull(),
    contentIdentity: text("content_identity").notNull(),
    outputIdentity: text("output_identity").notNull(),
    analysisProfileRef: text("analysis_profile_ref").notNull(),
    reportTemplateRef: text("report_template_ref").notNull(),
    manifest: text("manifest", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    createdAt: text("created_at").notNull(),
  },
  (table) => [index("reports_run_idx").on(table.runId, table.id)],
);
