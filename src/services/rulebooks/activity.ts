import { activeWorkflowRulebooks } from "../../db/repos/runs";
import type { Deps } from "../deps";

/**
 * The rulebooks among `ids` that a workflow run in `queued` or `processing` is working on.
 * The rulebook service asks only through this function (presenting
 * `has_active_workflow_run`, refusing DELETE with 409).
 */
export async function rulebooksWithActiveRuns(
  deps: Pick<Deps, "db">,
  ids: readonly string[],
): Promise<ReadonlySet<string>> {
  if (ids.length === 0) return new Set();
  return new Set(await activeWorkflowRulebooks(deps.db, ids));
}
