import type { FindingRow } from "../../db/repos/findings";
import type { Redaction } from "../../domain/evidence";
import type { FindingEvidence } from "../../domain/findings";
import { type DeletedSources, REDACTED_TEXT, redactSpan, SOURCE_DELETED } from "../deletion/redact";
import type { EvidenceLinker } from "../media/evidence-urls";

/** A cited span as clients read it: its finding and a signed clip of the span, unless redacted. */
export type FindingEvidenceDto = FindingEvidence & { finding_id: string; clip_url?: string };

/** A finding as the API shows it (the spec's Finding section). */
export interface FindingDto {
  id: string;
  run_id: string;
  video_id: string;
  workflow_id: string;
  rule_id: string;
  rule_reference: string;
  title: string;
  description: string;
  type: FindingRow["type"];
  severity: FindingRow["severity"];
  status: FindingRow["status"];
  result_state: FindingRow["resultState"];
  reason_code: string | null;
  evidence: FindingEvidenceDto[];
  evidence_ids: string[];
  metadata: FindingRow["metadata"];
  /** The finding's video was deleted: its description and every span's text are withheld. */
  redacted?: Redaction;
  review_note?: string;
  reviewed_at?: string;
  reviewed_by?: string;
  created_at: string;
  updated_at: string;
}

/**
 * The wire form of a finding. Lists pass no linker: their items carry `evidence_ids` and
 * an empty `evidence` (the spec's Finding section), so a page signs no URLs. A finding of a
 * deleted video keeps its rule, states and spans' times, but not its description (the
 * engine's summary, which quotes the video) nor any span's text or clip.
 */
export async function presentFinding(
  row: FindingRow,
  linker: EvidenceLinker | null,
  deleted: DeletedSources,
): Promise<FindingDto> {
  const redacted = deleted.has(row.videoId);
  const evidence = linker
    ? await Promise.all(
        row.evidence.map(async (stored) => {
          const span = { ...redactSpan(stored, deleted), finding_id: row.id };
          return span.redacted ? span : { ...span, clip_url: await linker.clipUrl(span) };
        }),
      )
    : [];
  return {
    id: row.id,
    run_id: row.runId,
    video_id: row.videoId,
    workflow_id: row.workflowId,
    rule_id: row.ruleId,
    rule_reference: row.ruleReference,
    title: row.title,
    description: redacted ? REDACTED_TEXT : row.description,
    type: row.type,
    severity: row.severity,
    status: row.status,
    result_state: row.resultState,
    reason_code: row.reasonCode,
    evidence,
    evidence_ids: row.evidence.map((span) => span.id),
    metadata: row.metadata,
    ...(redacted ? { redacted: SOURCE_DELETED } : {}),
    ...(row.reviewNote === null ? {} : { review_note: row.reviewNote }),
    ...(row.reviewedAt === null ? {} : { reviewed_at: row.reviewedAt }),
    ...(row.reviewedBy === null ? {} : { reviewed_by: row.reviewedBy }),
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}
