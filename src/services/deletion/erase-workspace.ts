import {
  deleteWorkspaceRow,
  findDeletingWorkspace,
  touchDeletingWorkspace,
} from "../../db/repos/workspace-erasure";
import { eraseFlatPage } from "../../db/repos/workspace-erasure-tables";
import { nowIso } from "../../lib/clock";
import type { EraseWorkspaceMessage } from "../../lib/queue-messages";
import { leaseMs } from "../sweep/lease";
import { type EraseWorkspaceDeps, type Erasure, PHASES } from "./workspace-phases";

/**
 * Steps per delivery. A step is one bounded piece (a page of rows, a page of objects, one
 * video's erasure), a few dozen subrequests at most, so a delivery stays far inside the
 * queue consumer's limits; the next delivery picks up from what is left.
 */
export const STEPS_PER_DELIVERY = 10;

/** What one delivery did. */
export type WorkspaceErasureResult = "erased" | "continued" | "waiting" | "skipped";

/**
 * Erases a deleting workspace: everything in it, phase by phase (`workspace-phases.ts`), then
 * its audit trail and its row. Every step is idempotent and found again from what is stored, so a redelivery or the
 * sweep resumes a crashed erasure anywhere. A delivery that used its steps sends the next one; a
 * delivery that must wait for work in flight (a video still processing, a run not stopped yet)
 * returns, and the sweep sends it again a lease later. The trail and row go only after a pass finds
 * nothing left, and no sooner than a lease after the deletion, so a request that authenticated
 * just before it (a key cached in another isolate) has ended and left nothing behind.
 */
export async function eraseWorkspace(
  deps: EraseWorkspaceDeps,
  message: EraseWorkspaceMessage,
): Promise<WorkspaceErasureResult> {
  const workspaceId = message.workspace_id;
  const workspace = await findDeletingWorkspace(deps.db, workspaceId);
  if (!workspace) return "skipped";
  const since = nowIso(deps.clock.now() - leaseMs(deps.config));
  const erasure: Erasure = { deps, workspaceId, since };
  let steps = 0;
  for (;;) {
    let progressed = false;
    let waiting = false;
    for (const phase of PHASES) {
      for (;;) {
        const step = await phase(erasure);
        if (step === "done") break;
        if (step === "waiting") {
          waiting = true;
          break;
        }
        progressed = true;
        steps++;
        await touchDeletingWorkspace(deps.db, workspaceId, nowIso(deps.clock.now()));
        if (steps >= STEPS_PER_DELIVERY) {
          await deps.queues.processing.send(message);
          return "continued";
        }
      }
    }
    if (progressed) continue;
    if (waiting || workspace.deletedAt > since) return "waiting";
    break;
  }
  // The audit trail goes last, after the quiet pass a lease on: until then it shows the
  // deletion and what came before it, and from then on no request can add to it.
  while ((await eraseFlatPage(deps.db, "auditLog", workspaceId)) > 0) {
    steps++;
    await touchDeletingWorkspace(deps.db, workspaceId, nowIso(deps.clock.now()));
    if (steps >= STEPS_PER_DELIVERY) {
      await deps.queues.processing.send(message);
      return "continued";
    }
  }
  await deleteWorkspaceRow(deps.db, workspaceId);
  const erasedAt = nowIso(deps.clock.now());
  // The operator's record that erasure completed: ids and times only.
  deps.log.info({
    workspace_erased: workspaceId,
    deleted_at: workspace.deletedAt,
    erased_at: erasedAt,
  });
  return "erased";
}
