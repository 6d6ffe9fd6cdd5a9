import { API_PREFIX } from "../../api-prefix";
import type { ReportRow } from "../../db/repos/runs";
import type { EvidenceRef } from "../../domain/evidence";
import type { EvidenceLinker } from "../evidence-urls";

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
    /** Signed URL playing the span. */
    clip_url: string;
  }[];
}

/** A report as the API shows it (the spec's Report section): the resource and its expansions. */
export interface ReportDto extends ReportResource {
  /** The rendered content (`expand[]=content`). */
  content?: string;
  /** Trust bindings (`expand[]=manifest`). */
  manifest?: ReportManifestDto;
}

type StoredManifest = Omit<ReportManifestDto, "evidence"> & {
  evidence: (EvidenceRef & { answer_id: string })[];
};

/**
 * A report's manifest: in R2 under the key its row names, or in the row itself for reports
 * made before manifests moved to R2.
 */
async function storedManifest(row: ReportRow, bucket: R2Bucket): Promise<StoredManifest> {
  const key = row.manifest.object_key;
  if (typeof key !== "string") return row.manifest as StoredManifest;
  const object = await bucket.get(key);
  if (!object) throw new Error(`the manifest of report ${row.id} is missing`);
  return (await object.json()) as StoredManifest;
}

/** Renders a report, reading its content from R2 and signing evidence URLs only when expanded. */
export async function presentReport(
  row: ReportRow,
  expand: ReadonlySet<string>,
  context: { bucket: R2Bucket; linker: EvidenceLinker },
): Promise<ReportDto> {
  const dto: ReportDto = reportResource(row);
  if (expand.has("content")) {
    const object = await context.bucket.get(row.objectKey);
    if (!object) throw new Error(`the content of report ${row.id} is missing`);
    dto.content = await object.text();
  }
  if (expand.has("manifest")) {
    const manifest = await storedManifest(row, context.bucket);
    dto.manifest = {
      content_identity: manifest.content_identity,
      answers: manifest.answers,
      evidence: await Promise.all(
        manifest.evidence.map(async (ref) => ({
          ...ref,
          clip_url: await context.linker.clipUrl(ref),
        })),
      ),
    };
  }
  return dto;
}
