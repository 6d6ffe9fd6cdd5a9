import type { ProfileVersionRow } from "../../db/repos/profiles";
import type { ReportTemplateVersionRow } from "../../db/repos/report-templates";
import type { AnswerSpec } from "../../domain/answers";
import type { TemplateBlock } from "../../domain/report-templates";

/** A profile version on the wire; routes/profiles/schemas.ts documents it. */
export interface ProfileVersionDto {
  profile_id: string;
  version: number;
  instructions: string;
  answer_specs: AnswerSpec[];
  created_by: string;
  created_at: string;
}

/** A report template version on the wire; routes/report-templates/schemas.ts documents it. */
export interface ReportTemplateVersionDto {
  report_template_id: string;
  version: number;
  language: string;
  blocks: TemplateBlock[];
  created_by: string;
  created_at: string;
}

/** Renders a profile version. */
export function presentProfileVersion(row: ProfileVersionRow): ProfileVersionDto {
  return {
    profile_id: row.profileId,
    version: row.version,
    instructions: row.instructions,
    answer_specs: row.answerSpecs,
    created_by: row.createdBy,
    created_at: row.createdAt,
  };
}

/** Renders a report template version. */
export function presentReportTemplateVersion(
  row: ReportTemplateVersionRow,
): ReportTemplateVersionDto {
  return {
    report_template_id: row.reportTemplateId,
    version: row.version,
    language: row.language,
    blocks: row.blocks,
    created_by: row.createdBy,
    created_at: row.createdAt,
  };
}
