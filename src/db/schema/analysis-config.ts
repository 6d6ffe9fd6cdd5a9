import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { AnswerSpec } from "../../domain/answers";
import type { TemplateBlock } from "../../domain/report-templates";
import { workspaces } from "./workspaces";

/**
 * Lifecycle states of a profile or report template head (the spec's Profile and report template
 * heads section).
 */
export const HEAD_STATUSES = ["active", "archived"] as const;

/**
 * An analysis profile head. Its versions are immutable rows of `profile_versions`;
 * `latest_version` is the highest of them, moved only in the batch that appends one.
 */
export const profiles = sqliteTable(
  "profiles",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    /** Null for anonymous heads. */
    name: text("name"),
    description: text("description"),
    status: text("status", { enum: HEAD_STATUSES }).notNull(),
    anonymous: integer("anonymous", { mode: "boolean" }).notNull(),
    latestVersion: integer("latest_version").notNull(),
    createdBy: text("created_by").notNull(),
    updatedBy: text("updated_by").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [
    index("profiles_workspace_list_idx").on(
      table.workspaceId,
      table.status,
      table.anonymous,
      table.id,
    ),
  ],
);

/** One immutable version of a profile; (profile_id, version) is unique. */
export const profileVersions = sqliteTable(
  "profile_versions",
  {
    profileId: text("profile_id")
      .notNull()
      .references(() => profiles.id),
    version: integer("version").notNull(),
    instructions: text("instructions").notNull(),
    answerSpecs: text("answer_specs", { mode: "json" }).$type<AnswerSpec[]>().notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.profileId, table.version] })],
);

/** A report template head; same lifecycle as a profile head. */
export const reportTemplates = sqliteTable(
  "report_templates",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    /** Null for anonymous heads. */
    name: text("name"),
    description: text("description"),
    status: text("status", { enum: HEAD_STATUSES }).notNull(),
    anonymous: integer("anonymous", { mode: "boolean" }).notNull(),
    latestVersion: integer("latest_version").notNull(),
    createdBy: text("created_by").notNull(),
    updatedBy: text("updated_by").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [
    index("report_templates_workspace_list_idx").on(
      table.workspaceId,
      table.status,
      table.anonymous,
      table.id,
    ),
  ],
);

/** One immutable version of a report template; (report_template_id, version) is unique. */
export const reportTemplateVersions = sqliteTable(
  "report_template_versions",
  {
    reportTemplateId: text("report_template_id")
      .notNull()
      .references(() => reportTemplates.id),
    version: integer("version").notNull(),
    language: text("language").notNull(),
    blocks: text("blocks", { mode: "json" }).$type<TemplateBlock[]>().notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.reportTemplateId, table.version] })],
);
