import { type RulebookRow, rulesOfSets } from "../../db/repos/rulebooks";
import type { AuthContext } from "../../domain/caller";
import type { Rule } from "../../domain/rulebooks";
import type { Deps } from "../deps";
import { rulebooksWithActiveRuns } from "../rulebooks/activity";

/** A rulebook as the API shows it to one key (the spec's Rulebook section). */
export interface RulebookResource {
  id: string;
  name: string;
  content: string;
  rules: Rule[];
  rule_set_version_id: string;
  is_template: boolean;
  template_key: string | null;
  can_edit: boolean;
  can_delete: boolean;
  has_active_workflow_run: boolean;
  owner_id: string | null;
  created_by: string;
  updated_by: string;
  created_at: string;
  updated_at: string;
}

/**
 * Presents rulebooks for the calling key, reading their current rules and live workflow
 * activity in one query each. `can_edit`: the key's owner owns it and it is no template;
 * `can_delete` adds "no workflow run queued or processing on it".
 */
export async function presentRulebooks(
  deps: Pick<Deps, "db">,
  auth: AuthContext,
  rows: readonly RulebookRow[],
): Promise<RulebookResource[]> {
  const [rulesBySet, active] = await Promise.all([
    rulesOfSets(
      deps.db,
      rows.map((row) => row.ruleSetVersionId),
    ),
    rulebooksWithActiveRuns(
      deps,
      rows.map((row) => row.id),
    ),
  ]);
  return rows.map((row) => {
    const running = active.has(row.id);
    const owned = row.workspaceId === auth.workspaceId && row.ownerId === auth.ownerId;
    return {
      id: row.id,
      name: row.name,
      content: row.content,
      rules: rulesBySet.get(row.ruleSetVersionId) ?? [],
      rule_set_version_id: row.ruleSetVersionId,
      is_template: row.isTemplate,
      template_key: row.templateKey,
      can_edit: owned && !row.isTemplate,
      can_delete: owned && !row.isTemplate && !running,
      has_active_workflow_run: running,
      owner_id: row.ownerId,
      created_by: row.createdBy,
      updated_by: row.updatedBy,
      created_at: row.createdAt,
      updated_at: row.updatedAt,
    };
  });
}
