import { findVideos } from "../../db/repos/videos";
import { findWorkflow, insertWorkflow, type WorkflowRow } from "../../db/repos/workflows";
import type { AuthContext } from "../../domain/caller";
import type { WorkflowOutputMode, WorkflowStatus } from "../../domain/workflows";
import { ApiError, notFound } from "../../errors/api-error";
import { nowIso } from "../../lib/clock";
import { newId } from "../../lib/ids";
import { refuseDeleted } from "../deletion/refuse-deleted";
import type { Deps } from "../deps";
import { presentWorkflow, type WorkflowResource } from "../presenters/workflow";
import { visibleRulebook } from "../rulebooks/rulebooks";

/** What POST /workflows asks for, validated. */
export interface WorkflowDraft {
  name: string;
  playbook: string;
  rulebook_id: string;
  source_ids: string[];
  output_modes: WorkflowOutputMode[];
  status: WorkflowStatus;
  template_type: string;
}

/** Checks every source in order: the first unknown (404) or not completed (409) is named. */
async function checkSources(deps: Pick<Deps, "db">, auth: AuthContext, ids: readonly string[]) {
  const byId = new Map((await findVideos(deps.db, auth.workspaceId, ids)).map((v) => [v.id, v]));
  await refuseDeleted(deps.db, auth.workspaceId, ids, byId);
  for (const id of ids) {
    const video = byId.get(id);
    if (!video) throw notFound("Video", id);
    if (video.status !== "completed") {
      throw new ApiError(
        "conflict",
        `Video ${id} is ${video.status}; a workflow takes completed, searchable videos only.`,
      );
    }
  }
}

/**
 * Creates a workflow over a rulebook the key may see (its owner's or a shared template)
 * and completed videos of the workspace, freezing the rulebook's current rule set: later
 * edits of the rulebook do not change what the workflow checks.
 */
export async function createWorkflow(
  deps: Pick<Deps, "db" | "clock">,
  auth: AuthContext,
  draft: WorkflowDraft,
): Promise<WorkflowResource> {
  const rulebook = await visibleRulebook(deps, auth, draft.rulebook_id);
  await checkSources(deps, auth, draft.source_ids);
  const now = deps.clock.now();
  const row: WorkflowRow = {
    id: newId("wf", now),
    workspaceId: auth.workspaceId,
    name: draft.name,
    playbook: draft.playbook,
    rulebookId: rulebook.id,
    ruleSetVersionId: rulebook.ruleSetVersionId,
    sourceIds: draft.source_ids,
    outputModes: draft.output_modes,
    status: draft.status,
    templateType: draft.template_type,
    latestRunId: null,
    createdBy: auth.keyId,
    createdAt: nowIso(now),
    updatedAt: nowIso(now),
  };
  await insertWorkflow(deps.db, row);
  return presentWorkflow(row);
}

/** One workflow of the workspace, or 404. */
export async function getWorkflow(
  deps: Pick<Deps, "db">,
  auth: AuthContext,
  id: string,
): Promise<WorkflowResource> {
  const row = await findWorkflow(deps.db, auth.workspaceId, id);
  if (!row) throw notFound("Workflow", id);
  return presentWorkflow(row);
}
