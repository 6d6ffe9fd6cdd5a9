import type { RunRow } from "../../db/repos/runs";
import type { StoredError } from "../../domain/async-errors";
import { emptyUsage } from "../../domain/runs";

/** What a run used on the wire (`usage` in the spec's Run section). */
export interface RunUsageDto {
  cached_input_tokens: number;
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  media_seconds: number;
  model_calls?: number;
  provider_returned_cost: string;
}

/** The `workflow` object of a workflow run; routes/runs/workflow-detail.ts documents it. */
export interface WorkflowDetailDto {
  workflow_id: string;
  case_id: string;
  rulebook_id: string;
  rule_set_version_id: string;
  report_id: string | null;
  summary: string | null;
  result_state: RunRow["resultState"];
  reason_code: string | null;
  error?: StoredError;
  error_message?: string;
  sub_state: RunRow["subState"];
  cancel_requested: boolean;
  execution_profile_ref: RunRow["executionProfileRef"];
  locale: string;
  source_snapshot: { source_ids: string[] };
  provenance: {
    execution_profile: string;
    provenance_ref: string | null;
    request_id: string;
    engine: string | null;
    usage: RunUsageDto;
  };
}

/** A run's usage on the wire: none recorded reads as nothing used. */
export function presentUsage(run: RunRow): RunUsageDto {
  return { ...(run.usage ?? emptyUsage()), provider_returned_cost: "0" };
}

/** The wire form of a workflow run's detail. */
export function presentWorkflowDetail(run: RunRow): WorkflowDetailDto {
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
      usage: presentUsage(run),
    },
  };
}
