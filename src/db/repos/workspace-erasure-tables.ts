import { and, eq, inArray, isNotNull, notExists, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database } from "../client";
import {
  apiKeys,
  auditLog,
  events,
  profiles,
  profileVersions,
  reportTemplates,
  reportTemplateVersions,
  rulebookCsvImports,
  rulebooks,
  ruleSetVersions,
  rules,
  usageDaily,
  videos,
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
  workflows,
} from "../schema";

/** Rows deleted per table and statement: a statement stays short, whatever a table holds. */
export const ROWS_PER_STATEMENT = 500;

/** Deletes at most `limit` rows of `table` matching `where`: one bounded statement. */
export function deletePage(
  db: Database,
  table: SQLiteTable,
  where: SQL,
  limit = ROWS_PER_STATEMENT,
) {
  return db
    .delete(table)
    .where(sql`rowid in (select rowid from ${table} where ${where} limit ${limit})`);
}

/** Ids of a page of the workspace's rows in a table that has its own children. */
async function idsPage(
  db: Database,
  table: typeof profiles | typeof reportTemplates | typeof rulebooks | typeof webhookEndpoints,
  workspaceId: string,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .select({ id: table.id })
    .from(table)
    .where(eq(table.workspaceId, workspaceId))
    .limit(limit);
  return rows.map((row) => row.id);
}

/** A family of tables erased children first: which parents a step takes, and its statements. */
export interface Family {
  page(db: Database, workspaceId: string, limit: number): Promise<string[]>;
  statements(db: Database, ids: string[]): BatchItem<"sqlite">[];
}

/** Profiles and their versions. */
export const PROFILES: Family = {
  page: (db, workspaceId, limit) => idsPage(db, profiles, workspaceId, limit),
  statements: (db, ids) => [
    deletePage(db, profileVersions, inArray(profileVersions.profileId, ids)),
    db
      .delete(profiles)
      .where(
        and(
          inArray(profiles.id, ids),
          notExists(
            db
              .select({ one: sql`1` })
              .from(profileVersions)
              .where(eq(profileVersions.profileId, profiles.id)),
          ),
        ),
      ),
  ],
};

/** Report templates and their versions. */
export const REPORT_TEMPLATES: Family = {
  page: (db, workspaceId, limit) => idsPage(db, reportTemplates, workspaceId, limit),
  statements: (db, ids) => [
    deletePage(db, reportTemplateVersions, inArray(reportTemplateVersions.reportTemplateId, ids)),
    db
      .delete(reportTemplates)
      .where(
        and(
          inArray(reportTemplates.id, ids),
          notExists(
            db
              .select({ one: sql`1` })
              .from(reportTemplateVersions)
              .where(eq(reportTemplateVersions.reportTemplateId, reportTemplates.id)),
          ),
        ),
      ),
  ],
};

/** Rulebooks (never the shared templates, which have no workspace), rule sets and rules. */
export const RULEBOOKS: Family = {
  page: (db, workspaceId, limit) => idsPage(db, rulebooks, workspaceId, limit),
  statements: (db, ids) => {
    const sets = db
      .select({ id: ruleSetVersions.id })
      .from(ruleSetVersions)
      .where(inArray(ruleSetVersions.rulebookId, ids));
    return [
      deletePage(db, rules, inArray(rules.ruleSetVersionId, sets)),
      deletePage(
        db,
        ruleSetVersions,
        and(
          inArray(ruleSetVersions.rulebookId, ids),
          notExists(
            db
              .select({ one: sql`1` })
              .from(rules)
              .where(eq(rules.ruleSetVersionId, ruleSetVersions.id)),
          ),
        ) ?? sql`0`,
      ),
      db
        .delete(rulebooks)
        .where(
          and(
            inArray(rulebooks.id, ids),
            eq(rulebooks.isTemplate, false),
            notExists(
              db
                .select({ one: sql`1` })
                .from(ruleSetVersions)
                .where(eq(ruleSetVersions.rulebookId, rulebooks.id)),
            ),
          ),
        ),
    ];
  },
};

/** Webhook endpoints, their deliveries and the deliveries' attempt logs. */
export const WEBHOOK_ENDPOINTS: Family = {
  page: (db, workspaceId, limit) => idsPage(db, webhookEndpoints, workspaceId, limit),
  statements: (db, ids) => {
    const deliveries = db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(inArray(webhookDeliveries.endpointId, ids));
    return [
      deletePage(db, webhookAttempts, inArray(webhookAttempts.deliveryId, deliveries)),
      deletePage(
        db,
        webhookDeliveries,
        and(
          inArray(webhookDeliveries.endpointId, ids),
          notExists(
            db
              .select({ one: sql`1` })
              .from(webhookAttempts)
              .where(eq(webhookAttempts.deliveryId, webhookDeliveries.id)),
          ),
        ) ?? sql`0`,
      ),
      db
        .delete(webhookEndpoints)
        .where(
          and(
            inArray(webhookEndpoints.id, ids),
            notExists(
              db
                .select({ one: sql`1` })
                .from(webhookDeliveries)
                .where(eq(webhookDeliveries.endpointId, webhookEndpoints.id)),
            ),
          ),
        ),
    ];
  },
};

/** Tables whose rows of a workspace go a page at a time, with nothing hanging off them. */
const FLAT = {
  /** Tombstones of videos whose erasure completed. */
  videos: (workspaceId: string) =>
    [videos, and(eq(videos.workspaceId, workspaceId), isNotNull(videos.erasedAt))] as const,
  workflows: (workspaceId: string) => [workflows, eq(workflows.workspaceId, workspaceId)] as const,
  csvImports: (workspaceId: string) =>
    [rulebookCsvImports, eq(rulebookCsvImports.workspaceId, workspaceId)] as const,
  events: (workspaceId: string) => [events, eq(events.workspaceId, workspaceId)] as const,
  apiKeys: (workspaceId: string) => [apiKeys, eq(apiKeys.workspaceId, workspaceId)] as const,
  /** The usage rollup, which deleting videos leaves as it is. */
  usage: (workspaceId: string) => [usageDaily, eq(usageDaily.workspaceId, workspaceId)] as const,
  auditLog: (workspaceId: string) => [auditLog, eq(auditLog.workspaceId, workspaceId)] as const,
};

/** A table whose rows of a workspace go a page at a time. */
export type FlatTable = keyof typeof FLAT;

/** Every flat table. */
export const FLAT_TABLES = Object.keys(FLAT) as FlatTable[];

/** Deletes a page of the workspace's rows of a flat table; answers how many went. */
export async function eraseFlatPage(
  db: Database,
  name: FlatTable,
  workspaceId: string,
): Promise<number> {
  const [table, where] = FLAT[name](workspaceId);
  const result = await deletePage(db, table, where ?? sql`0`);
  return result.meta.changes;
}
