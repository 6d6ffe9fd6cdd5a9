import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { RuleKind, RuleSeverity } from "../../domain/rulebooks";

/**
 * A rulebook. Shared templates have no workspace and no owner (`is_template`); every other
 * rulebook belongs to one owner of one workspace. `rule_set_version_id` points at the
 * current immutable rule set. Deleted rulebooks keep their row (`deleted_at`) because
 * workflows and runs keep referring to their rule set versions.
 */
export const rulebooks = sqliteTable(
  "rulebooks",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id"),
    ownerId: text("owner_id"),
    name: text("name").notNull(),
    content: text("content").notNull(),
    isTemplate: integer("is_template", { mode: "boolean" }).notNull(),
    templateKey: text("template_key").unique(),
    ruleSetVersionId: text("rule_set_version_id").notNull(),
    createdBy: text("created_by").notNull(),
    updatedBy: text("updated_by").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    deletedAt: text("deleted_at"),
  },
  (table) => [
    index("rulebooks_owner_list_idx").on(
      table.workspaceId,
      table.ownerId,
      table.updatedAt,
      table.id,
    ),
    index("rulebooks_template_list_idx").on(table.isTemplate, table.updatedAt, table.id),
  ],
);

/**
 * One immutable rule set of a rulebook: never updated, only added. `number` counts a
 * rulebook's sets from 1; (rulebook_id, number) is unique, so two concurrent edits of one
 * rulebook cannot both append on the same base.
 */
export const ruleSetVersions = sqliteTable(
  "rule_set_versions",
  {
    id: text("id").primaryKey(),
    rulebookId: text("rulebook_id").notNull(),
    number: integer("number").notNull(),
    ruleCount: integer("rule_count").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (table) => [
    uniqueIndex("rule_set_versions_rulebook_number_idx").on(table.rulebookId, table.number),
  ],
);

/** The rules of one rule set version, in the order the client gave them. */
export const rules = sqliteTable(
  "rules",
  {
    ruleSetVersionId: text("rule_set_version_id").notNull(),
    position: integer("position").notNull(),
    ruleId: text("rule_id").notNull(),
    title: text("title").notNull(),
    description: text("description").notNull(),
    severity: text("severity").$type<RuleSeverity>(),
    version: integer("version").notNull(),
    /** Null for rules written before kinds: their kind is read from the title. */
    kind: text("kind").$type<RuleKind>(),
  },
  (table) => [
    uniqueIndex("rules_set_position_idx").on(table.ruleSetVersionId, table.position),
    uniqueIndex("rules_set_rule_idx").on(table.ruleSetVersionId, table.ruleId),
  ],
);

/**
 * A CSV import session (`rbi_…`): the parsed file's facts; the file itself (UTF-8, BOM
 * removed) is kept in the media bucket until the session expires.
 */
export const rulebookCsvImports = sqliteTable(
  "rulebook_csv_imports",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    ownerId: text("owner_id").notNull(),
    createdBy: text("created_by").notNull(),
    delimiter: text("delimiter").notNull(),
    columns: text("columns", { mode: "json" }).$type<string[]>().notNull(),
    rowCount: integer("row_count").notNull(),
    byteSize: integer("byte_size").notNull(),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
  },
  // Erasing a deleted workspace finds its import sessions by workspace.
  (table) => [index("rulebook_csv_imports_workspace_idx").on(table.workspaceId)],
);
