import { z } from "@hono/zod-openapi";
import { RESULT_STATES } from "../../domain/answers";
import { EXECUTION_PROFILE_REFS } from "../../domain/execution-profiles";
import { AsyncErrorSchema, type SameShape } from "../../schemas/common";
import type { WorkflowDetailDto } from "../../services/presenters/workflow-run";
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
      description:
        'Counts of finding states, those with none left out, e.g. "3 found, 5 not found, 1 uncertain over 2 videos"',
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

/** Fails to compile when the documented schema and the presented type drift apart. */
export const WORKFLOW_DETAIL_SCHEMA_MATCHES_PRESENTER: SameShape<
  z.infer<typeof WorkflowDetailSchema>,
  WorkflowDetailDto
> = true;
