import { z } from "@hono/zod-openapi";
import type { RunRow } from "../../db/repos/runs";
import { RESULT_STATES } from "../../domain/answers";
import { EXECUTION_PROFILE_REFS } from "../../domain/execution-profiles";
import { AsyncErrorSchema } from "../../schemas/common";
import { RunUsageSchema } from "./usage";

/** The `workflow` object of a workflow run (the spec's Run section). */
export const WorkflowDetailSchema = z
  .object({
    workflow_id: z.string(),
    case_id: z.string().openapi({ description: "The review case this run is: the run's id" }),
    rulebook_id: z.string(),
    rule_set_version_id: z
      .string()
      .openapi({ description: "The rule set version the run checks, frozen in the workflow" }),
    report_id: z
      .string()
      .nullable()
      .openapi({ description: "The run's JSON report, once the run completed" }),
    summary: z.string().nullable().openapi({
      description: 'Counts of finding states, those with none left out, e.g. "3 found, 5 not found, 1 uncertain over 2 videos"',
    }),
    result_state: z.enum([...RESULT_STATES, "error"]).nullable(),
    reason_code: z.string().nullable(),
    error: AsyncErrorSchema.optional(),
    error_message: z.string().optional().openapi({ description: "Deprecated: use error" }),
    sub_state: z.enum(["accepted", "running", "completed", "failed", "canceled"]),
    cancel_requested: z.boolean(),
    execution_profile_ref: z.enum(EXECUTION_PROFILE_REFS),
    locale: z.string(),
    source_snapshot: z
      .object({ source_ids: z.array(z.string()) })
      .openapi({ description: "The videos the run checks (immutable)" }),
    provenance: z.object({
      execution_profile: z.string(),
      provenance_ref: z.string().nullable(),
      request_id: z.string(),
      engine: z.string().nullable(),
      usage: RunUsageSchema,
    }),
  })
  .openapi("WorkflowRunDetail");

/** The wire form of a workflow run's detail. */
export function presentWorkflowDetail(run: RunRow): z.infer<typeof WorkflowDetailSchema> {
  const usage = run.usage ?? {
    input_tokens: 0,
    output_tokens: 0,
    cached_input_tokens: 0,
    total_tokens: 0,
    media_seconds: 0,
  };
  return {
    workflow_id: run.workflowId ?? "",
    case_id: run.id,
    rulebook_id: run.rulebookId ?? "",
    rule_set_version_id: run.ruleSetVersionId ?? "",
    report_id: run.reportId,
    summary: run.summary,
    result_state: run.resultState,
    reason_code: run.reasonCode,
    ...(run.error === null ? {} : { error: run.error, error_message: run.error.detail }),
    sub_state: run.subState,
    cancel_requested: run.cancelRequested,
    execution_profile_ref: run.executionProfileRef,
    locale: run.locale,
    source_snapshot: { source_ids: run.sourceIds },
    provenance: {
      execution_profile: run.executionProfileRef,
      provenance_ref: run.outputSnapshotId,
      request_id: run.requestId,
      engine: run.engine,
      usage: { ...usage, provider_returned_cost: "0" },
    },
  };
}
