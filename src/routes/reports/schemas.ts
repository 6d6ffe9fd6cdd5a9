import { z } from "@hono/zod-openapi";
import type { ReportRow } from "../../db/repos/runs";
import type { EvidenceRef } from "../../domain/evidence";
import { TimestampSchema } from "../../schemas/common";
import type { EvidenceLinker } from "../../services/evidence-urls";
import { reportResource } from "../../services/presenters/report";

/** Expand values of report reads. */
export const REPORT_EXPANDABLE = ["content", "manifest"] as const;

const ManifestSchema = z
  .object({
    content_identity: z.string(),
    answers: z.array(
      z.object({ answer_id: z.string(), answer_key: z.string(), result_state: z.string() }),
    ),
    evidence: z.array(
      z.object({
        answer_id: z.string(),
        evidence_id: z.string(),
        video_id: z.string(),
        segment_id: z.string(),
        kind: z.string(),
        start_time: z.number(),
        end_time: z.number(),
        text: z.string(),
        clip_url: z
          .string()
          .openapi({ description: "Signed URL playing the span, valid at least 1 hour" }),
      }),
    ),
  })
  .openapi("ReportManifest");

/** A report (the spec's Report section). */
export const ReportSchema = z
  .object({
    id: z.string().openapi({ example: "rep_01jd3m6t8y0c7x4k2n9q5r1s3v" }),
    run_id: z.string(),
    request_id: z.string().openapi({ description: "The request that created the report" }),
    format: z.enum(["json", "markdown"]),
    content_type: z.enum(["application/json", "text/markdown"]),
    content_ref: z
      .string()
      .openapi({ description: "Where the content is read: this report with expand[]=content" }),
    content_identity: z
      .string()
      .openapi({ description: "sha256:<hex> of the content bytes", example: "sha256:9f86d0…" }),
    output_identity: z
      .string()
      .openapi({ description: "sha256 of the rendering inputs (run, format, template, answers)" }),
    analysis_profile_ref: z
      .string()
      .openapi({ description: "The run's profile snapshot identity" }),
    report_template_ref: z.string().openapi({
      description:
        "name@version of the template rendered: the stored template's name (or the inline " +
        "template's id) folded to lowercase hyphenated form",
      example: "weekly-dock-summary@2",
    }),
    content: z
      .string()
      .optional()
      .openapi({ description: "The rendered content (expand[]=content)" }),
    manifest: ManifestSchema.optional().openapi({
      description: "Trust bindings (expand[]=manifest)",
    }),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .openapi("Report");

/** The wire type of a report. */
export type ReportDto = z.infer<typeof ReportSchema>;

type StoredManifest = Omit<z.infer<typeof ManifestSchema>, "evidence"> & {
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
