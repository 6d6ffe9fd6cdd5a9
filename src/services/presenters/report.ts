import { API_PREFIX } from "../../api-prefix";
import type { ReportRow } from "../../db/repos/runs";

/** A report as `GET /reports/{id}` answers it without `expand[]`. */
export interface ReportResource {
  id: string;
  run_id: string;
  request_id: string;
  format: ReportRow["format"];
  content_type: "application/json" | "text/markdown";
  content_ref: string;
  content_identity: string;
  output_identity: string;
  analysis_profile_ref: string;
  report_template_ref: string;
  created_at: string;
  updated_at: string;
}

/**
 * The one presentation of a stored report: the body of `GET /reports/{id}` (which adds the
 * expansions) and the `data.report` of its `report.created` event.
 */
export function reportResource(row: ReportRow): ReportResource {
  return {
    id: row.id,
    run_id: row.runId,
    request_id: row.requestId,
    format: row.format,
    content_type: row.contentType as ReportResource["content_type"],
    content_ref: `${API_PREFIX}/reports/${row.id}?expand[]=content`,
    content_identity: row.contentIdentity,
    output_identity: row.outputIdentity,
    analysis_profile_ref: row.analysisProfileRef,
    report_template_ref: row.reportTemplateRef,
    created_at: row.createdAt,
    updated_at: row.createdAt,
  };
}
