import { z } from "@hono/zod-openapi";
import { RedactedSchema, type SameShape, TimestampSchema } from "../../schemas/common";
import { REDACTED_TEXT } from "../../services/deletion/redact";
import type { ReportDto } from "../../services/presenters/report";

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
        text: z.string().openapi({
          description: `What the span holds; \`${REDACTED_TEXT}\` when redacted`,
        }),
        clip_url: z.string().optional().openapi({
          description: "Signed URL playing the span, valid at least 1 hour; absent when redacted",
        }),
        redacted: RedactedSchema.optional(),
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
    notices: z
      .array(
        z.object({
          code: RedactedSchema,
          video_id: z.string(),
          detail: z.string(),
        }),
      )
      .optional()
      .openapi({
        description:
          "Sources of the run deleted since: the content and manifest withhold their quotes, titles and media links, and content_identity still names the content as issued. Absent when there are none.",
      }),
    content: z.string().optional().openapi({
      description:
        "The rendered content (expand[]=content); with a source deleted, the report rendered again with that source withheld",
    }),
    manifest: ManifestSchema.optional().openapi({
      description: "Trust bindings (expand[]=manifest)",
    }),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .openapi("Report");

/** The wire type of a report. */
export type { ReportDto } from "../../services/presenters/report";

/** Fails to compile when the documented schema and the presenter's type drift apart. */
export const REPORT_SCHEMA_MATCHES_PRESENTER: SameShape<
  z.infer<typeof ReportSchema>,
  ReportDto
> = true;
