import { z } from "@hono/zod-openapi";
import { RESULT_STATES } from "../../domain/answers";
import {
  FINDING_SEVERITIES,
  FINDING_STATUSES,
  FINDING_TYPES,
  REVIEW_STATUSES,
} from "../../domain/findings";
import { idParam, RedactedSchema, TimestampSchema } from "../../schemas/common";
import { REDACTED_TEXT } from "../../services/deletion/redact";

/** The `finding_id` path parameter. */
export const FindingParamsSchema = z.object({
  finding_id: idParam("finding_id", "finding_01jd3m6t8y0c7x4k2n9q5r1s3v"),
});

const EvidenceSchema = z
  .object({
    id: z.string(),
    finding_id: z.string(),
    video_id: z.string(),
    segment_id: z.string(),
    kind: z.enum(["transcript", "ocr", "scene", "thumbnail", "metadata"]),
    clip_url: z
      .string()
      .optional()
      .openapi({ description: "Signed URL of the video at the span (#t=); absent when redacted" }),
    start_time: z.number().openapi({ description: "Seconds from the start of the video" }),
    end_time: z.number(),
    text: z.string().openapi({
      description: `What the span holds: words, or a description; \`${REDACTED_TEXT}\` when redacted`,
    }),
    redacted: RedactedSchema.optional(),
  })
  .openapi("FindingEvidence");

/** A finding (the spec's Finding section). */
export const FindingSchema = z
  .object({
    id: z.string().openapi({ example: "finding_01jd3m6t8y0c7x4k2n9q5r1s3v" }),
    run_id: z.string(),
    video_id: z.string(),
    workflow_id: z.string(),
    rule_id: z.string(),
    rule_reference: z
      .string()
      .openapi({ description: "`rb_…/rule-id@version`", example: "rb_01j…/hard-hats@2" }),
    title: z.string().openapi({ description: "The rule's title" }),
    description: z.string().openapi({
      description: `What the engine found, in one sentence; \`${REDACTED_TEXT}\` when redacted`,
    }),
    type: z.enum(FINDING_TYPES).openapi({
      description:
        "By the rule's kind and the result state: a requirement `requirement_met` (found) or `requirement_not_shown` (not_found); a hazard `hazard_observed` (found) or `hazard_not_shown` (not_found); `needs_review` when uncertain or not_checked",
      example: "hazard_observed",
    }),
    severity: z.enum(FINDING_SEVERITIES).openapi({
      description:
        "`info` for a requirement met or a hazard not shown; otherwise the rule's severity (`medium` when it has none)",
      example: "high",
    }),
    status: z.enum(FINDING_STATUSES).openapi({ description: "Review status; `open` at first" }),
    result_state: z.enum(RESULT_STATES).openapi({
      description:
        "`found` only with cited evidence in the video; uncertain and not_checked are never a pass",
    }),
    reason_code: z.string().nullable(),
    evidence: z
      .array(EvidenceSchema)
      .openapi({ description: "All cited spans on GET /findings/{id}; empty in lists" }),
    evidence_ids: z.array(z.string()),
    metadata: z.object({
      extraction_method: z.string(),
      frame_number: z.number().optional(),
      limitations: z.array(z.string()),
      quality: z.enum(["exact", "limited", "unknown"]),
    }),
    redacted: RedactedSchema.optional().openapi({
      description:
        "The finding's video was deleted: its description and every span's text read as the redaction marker, and no clip URL is given",
    }),
    review_note: z.string().optional(),
    reviewed_at: TimestampSchema.optional(),
    reviewed_by: z.string().optional().openapi({ description: "The key that reviewed it" }),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .openapi("Finding");

/** The body of POST /findings/{id}/review. */
export const ReviewFindingBodySchema = z
  .strictObject({
    status: z.enum(REVIEW_STATUSES),
    note: z.string().max(2000).optional(),
  })
  .openapi("FindingReviewRequest");
