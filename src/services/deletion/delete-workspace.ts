import {
  type DeletingWorkspace,
  findDeletingWorkspace,
  markWorkspaceDeleting,
} from "../../db/repos/workspace-erasure";
import type { AuditedBy } from "../../domain/audit";
import { notFound } from "../../errors/api-error";
import { nowIso } from "../../lib/clock";
import { causedBy, type EraseWorkspaceMessage } from "../../lib/queue-messages";
import { evictCachedKeys } from "../access/keys";
import type { Deps } from "../deps";

/**
 * DELETE /admin/v1/workspaces/{id}: marks the workspace deleting in one statement, so from the
 * answer on none of its keys authenticates (this isolate's cache is emptied of them at once,
 * other isolates' within the cache's 10 s), the admin API answers 404 for it and no webhook of
 * it is sent; then hands erasure to the processing queue. The mark is recorded in the audit
 * trail as `by`'s. A repeated call answers the same deletion and records nothing; a lost send
 * is found again by the sweep from the row alone.
 */
export async function deleteWorkspace(
  deps: Pick<Deps, "db" | "clock" | "queues">,
  workspaceId: string,
  by: AuditedBy,
): Promise<DeletingWorkspace> {
  const marked = await markWorkspaceDeleting(deps.db, workspaceId, nowIso(deps.clock.now()), by);
  evictCachedKeys({ workspaceId });
  if (!marked) {
    const deleting = await findDeletingWorkspace(deps.db, workspaceId);
    if (!deleting) throw notFound("Workspace", workspaceId);
    return deleting;
  }
  await deps.queues.processing.send({
    type: "erase-workspace",
    workspace_id: workspaceId,
    ...causedBy(by.requestId),
  } satisfies EraseWorkspaceMessage);
  return marked;
}
