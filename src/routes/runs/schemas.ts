import { z } from "@hono/zod-openapi";
import type { AnswerRow, RunRow, SnapshotRow } from "../../db/repos/runs";
import { ANSWER_TYPES, RESULT_STATES } from "../../domain/answers";
import { EXECUTION_PROFILE_REFS, EXECUTION_PROFILES } from "../../domain/execution-profiles";
import { AsyncErrorSchema, idParam, TimestampSchema } from "../../schemas/common";
import type { RunNotice } from "../../services/understanding";
import { RunUsageSchema } from "./usage";
import { presentWorkflowDetail, WorkflowDetailSchema } from "./workflow-detail";

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
    code: z.enum(["nothing_understood"]).openapi({
      description: "nothing_understood: nothing in this video was heard or seen",
    }),
    video_id: z.string().openapi({ example: "vid_01jd3m6t8y0c7x4k2n9q5r1s3v" }),
    detail: z.string().openapi({
      description: "What it means for the run's answers, and what to do, in plain words",
      example:
        "site-walk.mp4: Nothing in this video was heard or seen, so search finds it only by its title and tags, and every rule or answer about it is not checked. …",
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

/** The wire type of a run of either kind. */
export type AnyRunDto = z.infer<typeof RunSchema>;
/** An analysis run as its readers see it. */
export type RunDto = AnyRunDto & { analysis: z.infer<typeof AnalysisDetailSchema> };
/** A workflow run as its readers see it. */
export type WorkflowRunDto = AnyRunDto & { workflow: z.infer<typeof WorkflowDetailSchema> };

/** Renders a run; snapshots and provenance only when expanded. */
export function presentRun(
  run: RunRow,
  extras: {
    answers?: Pick<AnswerRow, "id" | "key" | "type">[];
    snapshots?: SnapshotRow[];
    provenance?: boolean;
    notices?: RunNotice[];
  } = {},
): AnyRunDto {
  const notices = extras.notices?.length ? { notices: extras.notices } : {};
  if (run.kind === "workflow") {
    const workflow = presentWorkflowDetail(run);
    return {
      id: run.id,
      kind: run.kind,
      status: run.status,
      workflow,
      ...notices,
      created_at: run.createdAt,
      updated_at: run.updatedAt,
    };
  }
  // Every analysis run is admitted with a profile version; only workflow runs have none.
  if (run.profileId === null || run.profileVersion === null)
    throw new Error(`analysis run ${run.id} has no profile version`);
  const analysis: RunDto["analysis"] = {
    source_ids: run.sourceIds,
    execution_profile_ref: run.executionProfileRef,
    locale: run.locale,
    sub_state: run.subState,
    profile_id: run.profileId,
    profile_version: run.profileVersion,
    formats: run.formats,
    cancel_requested: run.cancelRequested,
    request_id: run.requestId,
  };
  if (run.reportTemplateId !== null) analysis.report_template_id = run.reportTemplateId;
  if (run.reportTemplateVersion !== null)
    analysis.report_template_version = run.reportTemplateVersion;
  if (run.resultState !== null) analysis.result_state = run.resultState;
  if (run.reasonCode !== null) analysis.reason_code = run.reasonCode;
  if (run.limitations.length > 0)
    analysis.limitations = run.limitations as NonNullable<RunDto["analysis"]["limitations"]>;
  if (run.outputSnapshotId !== null) analysis.result_id = run.outputSnapshotId;
  if (run.error !== null) {
    analysis.error = run.error;
    analysis.error_message = run.error.detail;
  }
  if (extras.answers && extras.answers.length > 0) {
    analysis.answer_references = extras.answers.map((answer) => ({
      answer_id: answer.id,
      answer_key: answer.key,
      answer_type: answer.type,
    }));
  }
  if (extras.snapshots) {
    analysis.analysis_profile_snapshot_id = run.profileSnapshotId;
    analysis.input_snapshot_id = run.inputSnapshotId;
    if (run.outputSnapshotId !== null) analysis.output_snapshot_id = run.outputSnapshotId;
    const content = (kind: SnapshotRow["kind"]) =>
      extras.snapshots?.find((s) => s.kind === kind)?.content;
    analysis.snapshots = { profile: content("profile") ?? {}, input: content("input") ?? {} };
    const output = content("output");
    if (output) analysis.snapshots.output = output;
  }
  if (extras.provenance) {
    const usage = run.usage ?? {
      input_tokens: 0,
      output_tokens: 0,
      cached_input_tokens: 0,
      total_tokens: 0,
      media_seconds: 0,
    };
    analysis.provenance = {
      engine: run.engine,
      execution_profile: run.executionProfileRef,
      budget: EXECUTION_PROFILES[run.executionProfileRef],
      usage: { ...usage, provider_returned_cost: "0" },
    };
  }
  return {
    id: run.id,
    kind: run.kind,
    status: run.status,
    analysis,
    ...notices,
    created_at: run.createdAt,
    updated_at: run.updatedAt,
  };
}
