import { API_PREFIX } from "../../api-prefix";
import type { ReportRow, RunRow } from "../../db/repos/runs";
import { deletedVideoIds } from "../../db/repos/video-erasure";
import type { Redaction } from "../../domain/evidence";
import { type DeletedSources, redactSpan, SOURCE_DELETED } from "../deletion/redact";
import type { Deps } from "../deps";
import type { EvidenceLinker } from "../media/evidence-urls";
import { storedManifest } from "../reports/manifest";
import { readableContent } from "../reports/read";

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

/** A report's trust bindings as `expand[]=manifest` shows them. */
export interface ReportManifestDto {
  content_identity: string;
  answers: { answer_id: string; answer_key: string; result_state: string }[];
  evidence: {
    answer_id: string;
    evidence_id: string;
    video_id: string;
    segment_id: string;
    kind: string;
    start_time: number;
    end_time: number;
    text: string;
    /** Signed URL playing the span; none when redacted. */
    clip_url?: string;
    redacted?: Redaction;
  }[];
}

/** A deleted source of the report's run: what reads of the report withhold of it. */
export interface ReportNoticeDto {
  code: Redaction;
  video_id: string;
  detail: string;
}

/** A report as the API shows it (the spec's Report section): the resource and its expansions. */
export interface ReportDto extends ReportResource {
  /** Sources of the run deleted since; present only when there are some. */
  notices?: ReportNoticeDto[];
  /** The rendered content (`expand[]=content`). */
  content?: string;
  /** Trust bindings (`expand[]=manifest`). */
  manifest?: ReportManifestDto;
}

// Says why `content_identity` no longer hashes what a read shows.
const REPORT_SOURCE_DELETED_DETAIL =
  "This video was deleted: the content and manifest read here withhold its quotes, title and media links. content_identity names the content as issued.";

/** The report's run and which of its sources are deleted: what every read of it needs. */
export interface ReportContext {
  deps: Pick<Deps, "db" | "bucket">;
  linker: EvidenceLinker;
  run: RunRow;
  deleted: DeletedSources;
}

/** The context of reads of the run's reports: which of its sources are deleted. */
export async function reportContext(
  deps: Pick<Deps, "db" | "bucket">,
  linker: EvidenceLinker,
  run: RunRow,
): Promise<ReportContext> {
  const deleted = await deletedVideoIds(deps.db, run.workspaceId, run.sourceIds);
  return { deps, linker, run, deleted };
}

/**
 * Renders a report, reading its content from R2 and signing evidence URLs only when expanded.
 * Whatever it holds of a source deleted since is withheld (`readableContent`), and `notices`
 * names each such source.
 */
export async function presentReport(
  row: ReportRow,
  expand: ReadonlySet<string>,
  context: ReportContext,
): Promise<ReportDto> {
  const { deps, linker, run, deleted } = context;
  const dto: ReportDto = reportResource(row);
  const gone = run.sourceIds.filter((id) => deleted.has(id));
  if (gone.length > 0) {
    dto.notices = gone.map((id) => ({
      code: SOURCE_DELETED,
      video_id: id,
      detail: REPORT_SOURCE_DELETED_DETAIL,
    }));
  }
  if (expand.has("content")) dto.content = await readableContent(deps, row, run, deleted);
  if (expand.has("manifest")) {
    const manifest = await storedManifest(row, deps.bucket);
    dto.manifest = {
      content_identity: manifest.content_identity,
      answers: manifest.answers,
      evidence: await Promise.all(
        manifest.evidence.map((stored) => linker.link(redactSpan(stored, deleted))),
      ),
    };
  }
  return dto;
}
