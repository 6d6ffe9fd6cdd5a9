import type { AnswerRow, RunRow, SnapshotRow } from "../../db/repos/runs";
import type { AnswerType } from "../../domain/answers";
import type { StoredError } from "../../domain/async-errors";
import { EXECUTION_PROFILES } from "../../domain/execution-profiles";
import { redactInputSnapshot } from "../deletion/redact";
import type { RunNotice } from "../media/understood";
import {
  presentUsage,
  presentWorkflowDetail,
  type RunUsageDto,
  type WorkflowDetailDto,
} from "./workflow-run";

/** Why an analysis run's answers may fall short. */
type RunLimitation = "budget_exhausted" | "execution_failed" | "required_evidence_not_extracted";

/** The `analysis` object of an analysis run; routes/runs/schemas.ts documents it. */
export interface AnalysisDetailDto {
  source_ids: string[];
  execution_profile_ref: RunRow["executionProfileRef"];
  locale: string;
  sub_state: RunRow["subState"];
  profile_id: string;
  profile_version: number;
  report_template_id?: string;
  report_template_version?: number;
  formats: RunRow["formats"];
  cancel_requested: boolean;
  request_id: string;
  analysis_profile_snapshot_id?: string;
  input_snapshot_id?: string;
  output_snapshot_id?: string;
  snapshots?: {
    profile: Record<string, unknown>;
    input: Record<string, unknown>;
    output?: Record<string, unknown>;
  };
  answer_references?: { answer_id: string; answer_key: string; answer_type: AnswerType }[];
  result_id?: string;
  result_state?: NonNullable<RunRow["resultState"]>;
  reason_code?: string;
  limitations?: RunLimitation[];
  error?: StoredError;
  error_message?: string;
  provenance?: {
    engine: string | null;
    execution_profile: string;
    budget: { media_seconds: number; tokens: number };
    usage: RunUsageDto;
  };
}

/** A run of either kind as clients see it (the spec's Run section). */
export interface AnyRunDto {
  id: string;
  kind: RunRow["kind"];
  status: RunRow["status"];
  analysis?: AnalysisDetailDto;
  workflow?: WorkflowDetailDto;
  notices?: RunNotice[];
  created_at: string;
  updated_at: string;
}

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
  const analysis: AnalysisDetailDto = {
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
  if (run.limitations.length > 0) analysis.limitations = run.limitations as RunLimitation[];
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
    // A source deleted since keeps its id; its name, title and duration are withheld.
    const deleted = new Set(
      (extras.notices ?? []).filter((n) => n.code === "source_deleted").map((n) => n.video_id),
    );
    analysis.snapshots = {
      profile: content("profile") ?? {},
      input: redactInputSnapshot(content("input") ?? {}, deleted),
    };
    const output = content("output");
    if (output) analysis.snapshots.output = output;
  }
  if (extras.provenance) {
    analysis.provenance = {
      engine: run.engine,
      execution_profile: run.executionProfileRef,
      budget: EXECUTION_PROFILES[run.executionProfileRef],
      usage: presentUsage(run),
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
