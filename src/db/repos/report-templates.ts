import type { Database } from "../client";
import { reportTemplates, reportTemplateVersions } from "../schema";
import { versionedHeadRepo } from "./versioned-heads";

/** A report template version row. */
export type ReportTemplateVersionRow = typeof reportTemplateVersions.$inferSelect;
/** What a report template version holds. */
export type ReportTemplateContent = Pick<ReportTemplateVersionRow, "language" | "blocks">;

/** The SQL of report templates: the versioned-head repo over their two tables. */
export const reportTemplateRepo = versionedHeadRepo<
  typeof reportTemplateVersions,
  ReportTemplateContent
>({
  heads: reportTemplates,
  versions: reportTemplateVersions,
  headId: reportTemplateVersions.reportTemplateId,
});

/** One report template of a workspace, or null when absent or in another workspace. */
export const findReportTemplate = reportTemplateRepo.find;

/** One version of a report template of the workspace with the template's name, or null. */
export async function findReportTemplateVersion(
  db: Database,
  workspaceId: string,
  id: string,
  version: number,
): Promise<(ReportTemplateVersionRow & { templateName: string | null }) | null> {
  const found = await reportTemplateRepo.findVersion(db, workspaceId, id, version);
  return found ? { ...found.version, templateName: found.headName } : null;
}
