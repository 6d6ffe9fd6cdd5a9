import type { Deps } from "../deps";

/**
 * The rulebooks among `ids` that a workflow run in `queued` or `processing` is working on.
 * Workflow runs do not exist yet, so none is; the rulebook service asks only through this
 * function (presenting `has_active_workflow_run`, refusing DELETE with 409), so workflow
 * runs answer it here once they are stored.
 */
export async function rulebooksWithActiveRuns(
  _deps: Pick<Deps, "db">,
  _ids: readonly string[],
): Promise<ReadonlySet<string>> {
  return new Set();
}
