import type { RunRow, SnapshotRow } from "../../db/repos/runs";
import { findWorkflow } from "../../db/repos/workflows";
import type { ExecutionProfileRef } from "../../domain/execution-profiles";
import { notFound } from "../../errors/api-error";
import { nowIso } from "../../lib/clock";
import { newId } from "../../lib/ids";
import type { Deps } from "../deps";
import { completedSources, inputSnapshotRow, newRunRow, queueRun } from "./create-run";

/** POST /runs for a workflow, as the route validated it. */
export interface CreateWorkflowRun {
  workspaceId: string;
  requestId: string;
  workflowId: string;
  /** The videos to check; the workflow's own when left out. */
  sourceIds: string[] | undefined;
  executionProfileRef: ExecutionProfileRef;
  locale: string;
  executeNow: boolean;
}

/**
 * What a workflow run froze at admission: the rule set version it checks (immutable, so
 * the id is the rules: up to 10,000 of them would not fit one D1 value) and the playbook.
 */
export interface WorkflowSnapshot {
  workflow_id: string;
  rulebook_id: string;
  rule_set_version_id: string;
  playbook: string;
}

/**
 * Admits a workflow run: the workflow's rule set version and playbook are recorded in the
 * run's snapshot (rule set versions never change, so editing the rulebook later changes
 * nothing for the run), the sources are checked like an analysis run's, and the same run
 * object queues it.
 */
export async function createWorkflowRun(
  deps: Pick<Deps, "db" | "objects">,
  input: CreateWorkflowRun,
): Promise<RunRow> {
  const { db } = deps;
  const workflow = await findWorkflow(db, input.workspaceId, input.workflowId);
  if (!workflow) throw notFound("Workflow", input.workflowId);
  const sourceIds = input.sourceIds ?? workflow.sourceIds;
  const sources = await completedSources(db, input.workspaceId, sourceIds);

  const now = nowIso();
  const runId = newId("run");
  const frozen: WorkflowSnapshot = {
    workflow_id: workflow.id,
    rulebook_id: workflow.rulebookId,
    rule_set_version_id: workflow.ruleSetVersionId,
    playbook: workflow.playbook,
  };
  const profileSnapshot: SnapshotRow = {
    id: newId("snap"),
    runId,
    kind: "profile",
    content: { ...frozen },
    createdAt: now,
  };
  const inputSnapshot = inputSnapshotRow(
    runId,
    now,
    { sourceIds, executionProfileRef: input.executionProfileRef, locale: input.locale },
    sources,
    {},
  );
  const run = newRunRow({
    id: runId,
    workspaceId: input.workspaceId,
    kind: "workflow",
    sourceIds,
    executionProfileRef: input.executionProfileRef,
    locale: input.locale,
    profileId: null,
    profileVersion: null,
    reportTemplateId: null,
    reportTemplateVersion: null,
    // The workflow's report output modes are rendered when the run completes.
    formats: workflow.outputModes.flatMap((mode) => (mode === "findings" ? [] : [mode])),
    profileSnapshotId: profileSnapshot.id,
    inputSnapshotId: inputSnapshot.id,
    workflowId: workflow.id,
    rulebookId: workflow.rulebookId,
    ruleSetVersionId: workflow.ruleSetVersionId,
    requestId: input.requestId,
    createdAt: now,
  });
  await queueRun(deps, run, [profileSnapshot, inputSnapshot], input.executeNow);
  return run;
}
