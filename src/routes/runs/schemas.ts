import { z } from "@hono/zod-openapi";
import { ANSWER_TYPES, RESULT_STATES } from "../../domain/answers";
import { EXECUTION_PROFILE_REFS } from "../../domain/execution-profiles";
import { AsyncErrorSchema, idParam, type SameShape, TimestampSchema } from "../../schemas/common";
import type { AnyRunDto } from "../../services/presenters/run";
import { RunUsageSchema } from "./usage";
import { WorkflowDetailSchema } from "./workflow-detail";

/** Run statuses (the spec's Run section). */
export const RUN_STATUSES = ["queued", "processing", "completed", "failed", "canceled"] as const;

/** The `run_id` path parameter. */
export const RunIdParamsSchema = z.object({
  run_id: idParam("run_id", "run_01jd3m6t8y0c7x4k2n9q5r1s3v"),
});

const ProvenanceSchema = z
  .object({
    engine: z
      .string()
      .nullable()
      .openapi({ description: "The answer engine that produced the answers" }),
    execution_profile: z.string(),
    budget: z.object({ media_seconds: z.number(), tokens: z.number() }),
    usage: RunUsageSchema,
  })
  .openapi("RunProvenance");

const AnalysisDetailSchema = z
  .object({
    source_ids: z.array(z.string()),
    execution_profile_ref: z.enum(EXECUTION_PROFILE_REFS),
    locale: z.string(),
    sub_state: z.enum(["accepted", "running", "completed", "failed", "canceled"]),
    profile_id: z.string(),
    profile_version: z.number().int().min(1),
    report_template_id: z.string().optional(),
    report_template_version: z.number().int().min(1).optional(),
    formats: z.array(z.enum(["json", "markdown"])),
    cancel_requested: z
      .boolean()
      .openapi({ description: "A stop was asked while the run was processing" }),
    request_id: z.string(),
    analysis_profile_snapshot_id: z.string().optional(),
    input_snapshot_id: z.string().optional(),
    output_snapshot_id: z.string().optional(),
    snapshots: z
      .object({
        profile: z.record(z.string(), z.unknown()),
        input: z.record(z.string(), z.unknown()),
        output: z.record(z.string(), z.unknown()).optional(),
      })
      .optional()
      .openapi({ description: "The immutable snapshot documents (expand[]=snapshots)" }),
    answer_references: z
      .array(
        z.object({
          answer_id: z.string(),
          answer_key: z.string(),
          answer_type: z.enum(ANSWER_TYPES),
        }),
      )
      .optional(),
    result_id: z.string().optional(),
    result_state: z.enum([...RESULT_STATES, "error"]).optional(),
    reason_code: z.string().optional(),
    limitations: z
      .array(z.enum(["budget_exhausted", "execution_failed", "required_evidence_not_extracted"]))
      .optional(),
    error: AsyncErrorSchema.optional(),
    error_message: z.string().optional().openapi({ description: "Deprecated: use error" }),
    provenance: ProvenanceSchema.optional().openapi({ description: "expand[]=provenance" }),
  })
  .openapi("AnalysisDetail");

const NoticeSchema = z
  .object({
    code: z.enum(["nothing_understood", "source_deleted"]).openapi({
      description:
        "nothing_understood: nothing in this video was heard or seen; source_deleted: the video was deleted, and the run read nothing of it from then on",
    }),
    video_id: z.string().openapi({ example: "vid_01jd3m6t8y0c7x4k2n9q5r1s3v" }),
    detail: z.string().openapi({
      description: "What it means for the run's answers, and what to do, in plain words",
      example:
        "site-walk.mp4: Nothing in this video was heard or seen, so search finds it only by its filename, title and tags, and every rule or answer about it is not checked. …",
    }),
  })
  .openapi("RunNotice");

/** A run (the spec's Run section, AlphaAnalysisRunDto). */
export const RunSchema = z
  .object({
    id: z.string().openapi({ example: "run_01jd3m6t8y0c7x4k2n9q5r1s3v" }),
    kind: z.enum(["analysis", "workflow"]),
    status: z.enum(RUN_STATUSES),
    analysis: AnalysisDetailSchema.optional().openapi({ description: "Analysis runs" }),
    workflow: WorkflowDetailSchema.optional().openapi({ description: "Workflow runs" }),
    notices: z.array(NoticeSchema).optional().openapi({
      description:
        "On GET /runs/{run_id} and POST /runs: why the run's answers may all be not checked, one per video in which nothing was heard or seen (its `media.understood.warning`)",
    }),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .openapi("Run");

/** The wire type of a run of either kind; the service's presenter must produce exactly this. */
export type { AnyRunDto } from "../../services/presenters/run";

/** Fails to compile when the documented schema and the presented type drift apart. */
export const RUN_SCHEMA_MATCHES_PRESENTER: SameShape<z.infer<typeof RunSchema>, AnyRunDto> = true;

/** An analysis run as its readers see it. */
export type RunDto = AnyRunDto & { analysis: z.infer<typeof AnalysisDetailSchema> };
/** A workflow run as its readers see it. */
export type WorkflowRunDto = AnyRunDto & { workflow: z.infer<typeof WorkflowDetailSchema> };
