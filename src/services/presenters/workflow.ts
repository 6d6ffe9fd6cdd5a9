import type { WorkflowRow } from "../../db/repos/workflows";
import type { WorkflowOutputMode, WorkflowStatus } from "../../domain/workflows";

/** A workflow as the API shows it (the spec's Workflow section). */
export interface WorkflowResource {
  id: string;
  name: string;
  playbook: string;
  rulebook_id: string;
  rule_set_version_id: string;
  source_ids: string[];
  output_modes: WorkflowOutputMode[];
  status: WorkflowStatus;
  template_type: string;
  latest_run_id: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** Wire form of a workflow row. */
export function presentWorkflow(row: WorkflowRow): WorkflowResource {
  return {
    id: row.id,
    name: row.name,
    playbook: row.playbook,
    rulebook_id: row.rulebookId,
    rule_set_version_id: row.ruleSetVersionId,
    source_ids: row.sourceIds,
    output_modes: row.outputModes,
    status: row.status,
    template_type: row.templateType,
    latest_run_id: row.latestRunId,
    created_by: row.createdBy,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}
