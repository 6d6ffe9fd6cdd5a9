import { and, desc, eq, lt, max, sql } from "drizzle-orm";
import type { PageQuery } from "../../lib/pagination";
import type { TemplateBlock } from "../../services/reports/types";
import type { Database } from "../client";
import { reportTemplates, reportTemplateVersions } from "../schema";
import { type AppendOutcome, type HeadStatus, MAX_VERSIONS_PER_HEAD, refusalOf } from "./profiles";

/** A report template head row. */
export type ReportTemplateRow = typeof reportTemplates.$inferSelect;
/** A report template version row. */
export type ReportTemplateVersionRow = typeof reportTemplateVersions.$inferSelect;
/** A head with its latest version. */
export interface ReportTemplateWithLatest {
  head: ReportTemplateRow;
  latest: ReportTemplateVersionRow;
}

/** Creates a head and its version 1 in one batch. */
export async function insertReportTemplate(
  db: Database,
  head: Omit<ReportTemplateRow, "latestVersion" | "status" | "updatedBy" | "updatedAt">,
  content: Pick<ReportTemplateVersionRow, "language" | "blocks">,
): Promise<ReportTemplateWithLatest> {
  const headRow: ReportTemplateRow = {
    ...head,
    status: "active",
    latestVersion: 1,
    updatedBy: head.createdBy,
    updatedAt: head.createdAt,
  };
  const latest: ReportTemplateVersionRow = {
    reportTemplateId: head.id,
    version: 1,
    ...content,
    createdBy: head.createdBy,
    createdAt: head.createdAt,
  };
  await db.batch([
    db.insert(reportTemplates).values(headRow),
    db.insert(reportTemplateVersions).values(latest),
  ]);
  return { head: headRow, latest };
}

/**
 * Appends the next version, atomically: one D1 batch (a transaction, and D1 runs one
 * at a time) inserts `latest_version + 1` only while the head is active, named and under
 * the limit, then moves `latest_version` to the highest stored version. Concurrent calls
 * therefore get consecutive numbers; none is lost, duplicated or skipped.
 */
export async function appendReportTemplateVersion(
  db: Database,
  workspaceId: string,
  reportTemplateId: string,
  content: { language: string; blocks: TemplateBlock[] },
  actor: { keyId: string; at: string },
): Promise<AppendOutcome<ReportTemplateVersionRow>> {
  const appendable = and(
    eq(reportTemplates.id, reportTemplateId),
    eq(reportTemplates.workspaceId, workspaceId),
    eq(reportTemplates.status, "active"),
    eq(reportTemplates.anonymous, false),
    lt(reportTemplates.latestVersion, MAX_VERSIONS_PER_HEAD),
  );
  const highest = db
    .select({ version: max(reportTemplateVersions.version) })
    .from(reportTemplateVersions)
    .where(eq(reportTemplateVersions.reportTemplateId, reportTemplateId));
  const [inserted] = await db.batch([
    db
      .insert(reportTemplateVersions)
      .select(
        db
          .select({
            reportTemplateId: reportTemplates.id,
            version: sql<number>`${reportTemplates.latestVersion} + 1`.as("version"),
            language: sql<string>`${content.language}`.as("language"),
            blocks: sql<string>`${JSON.stringify(content.blocks)}`.as("blocks"),
            createdBy: sql<string>`${actor.keyId}`.as("created_by"),
            createdAt: sql<string>`${actor.at}`.as("created_at"),
          })
          .from(reportTemplates)
          .where(appendable),
      )
      .returning(),
    db
      .update(reportTemplates)
      .set({ latestVersion: sql`(${highest})`, updatedBy: actor.keyId, updatedAt: actor.at })
      .where(
        and(
          eq(reportTemplates.id, reportTemplateId),
          lt(reportTemplates.latestVersion, sql`(${highest})`),
        ),
      ),
  ]);
  const version = inserted[0];
  if (version) return { outcome: "appended", version };
  const head = await findReportTemplate(db, workspaceId, reportTemplateId);
  return refusalOf(head);
}

/** One head of a workspace, or null when absent or in another workspace. */
export async function findReportTemplate(
  db: Database,
  workspaceId: string,
  id: string,
): Promise<ReportTemplateRow | null> {
  const rows = await db
    .select()
    .from(reportTemplates)
    .where(and(eq(reportTemplates.workspaceId, workspaceId), eq(reportTemplates.id, id)))
    .limit(1);
  return rows[0] ?? null;
}

/** One head of a workspace with its latest version, or null. */
export async function findReportTemplateWithLatest(
  db: Database,
  workspaceId: string,
  id: string,
): Promise<ReportTemplateWithLatest | null> {
  const rows = await db
    .select({ head: reportTemplates, latest: reportTemplateVersions })
    .from(reportTemplates)
    .innerJoin(
      reportTemplateVersions,
      and(
        eq(reportTemplateVersions.reportTemplateId, reportTemplates.id),
        eq(reportTemplateVersions.version, reportTemplates.latestVersion),
      ),
    )
    .where(and(eq(reportTemplates.workspaceId, workspaceId), eq(reportTemplates.id, id)))
    .limit(1);
  return rows[0] ?? null;
}

/** One version of a head of the workspace, or null. */
export async function findReportTemplateVersion(
  db: Database,
  workspaceId: string,
  id: string,
  version: number,
): Promise<(ReportTemplateVersionRow & { templateName: string | null }) | null> {
  const rows = await db
    .select({ version: reportTemplateVersions, templateName: reportTemplates.name })
    .from(reportTemplateVersions)
    .innerJoin(reportTemplates, eq(reportTemplates.id, reportTemplateVersions.reportTemplateId))
    .where(
      and(
        eq(reportTemplates.workspaceId, workspaceId),
        eq(reportTemplateVersions.reportTemplateId, id),
        eq(reportTemplateVersions.version, version),
      ),
    )
    .limit(1);
  const row = rows[0];
  return row ? { ...row.version, templateName: row.templateName } : null;
}

/**
 * Archives a head (a no-op when already archived, so the first archival's time and key
 * are kept) and reads it back, in one batch.
 */
export async function archiveReportTemplate(
  db: Database,
  workspaceId: string,
  id: string,
  actor: { keyId: string; at: string },
): Promise<ReportTemplateWithLatest | null> {
  // Two single-table reads: a D1 batch answers rows as objects, so a join of tables that
  // share column names (created_at, ...) would mix their values up.
  const scoped = and(eq(reportTemplates.workspaceId, workspaceId), eq(reportTemplates.id, id));
  const [, heads, latest] = await db.batch([
    db
      .update(reportTemplates)
      .set({ status: "archived", updatedBy: actor.keyId, updatedAt: actor.at })
      .where(and(scoped, eq(reportTemplates.status, "active"))),
    db.select().from(reportTemplates).where(scoped).limit(1),
    db
      .select()
      .from(reportTemplateVersions)
      .where(
        and(
          eq(reportTemplateVersions.reportTemplateId, id),
          eq(
            reportTemplateVersions.version,
            db
              .select({ version: reportTemplates.latestVersion })
              .from(reportTemplates)
              .where(scoped),
          ),
        ),
      )
      .limit(1),
  ]);
  const [found] = heads;
  const [version] = latest;
  return found && version ? { head: found, latest: version } : null;
}

/** Named heads of a workspace in one status, newest first, `limit + 1` rows. */
export async function listReportTemplates(
  db: Database,
  workspaceId: string,
  status: HeadStatus,
  page: PageQuery,
): Promise<ReportTemplateRow[]> {
  const afterId = page.after?.[0];
  return db
    .select()
    .from(reportTemplates)
    .where(
      and(
        eq(reportTemplates.workspaceId, workspaceId),
        eq(reportTemplates.status, status),
        eq(reportTemplates.anonymous, false),
        typeof afterId === "string" ? lt(reportTemplates.id, afterId) : undefined,
      ),
    )
    .orderBy(desc(reportTemplates.id))
    .limit(page.limit + 1);
}
