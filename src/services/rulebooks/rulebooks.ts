import type { BatchItem } from "drizzle-orm/batch";
import { runBatch } from "../../db/client";
import {
  findVisibleRulebook,
  insertRulebookStatement,
  insertRuleSetStatements,
  deleteRulebook as markDeleted,
  type RulebookRow,
  type RulebookViewer,
  ruleHistory,
  ruleSetNumber,
  rulesOfSets,
  updateRulebookStatement,
} from "../../db/repos/rulebooks";
import type { AuditedBy } from "../../domain/audit";
import type { AuthContext } from "../../domain/caller";
import type { RuleInput } from "../../domain/rulebooks";
import { ApiError, notFound } from "../../errors/api-error";
import { nowIso } from "../../lib/clock";
import { newId } from "../../lib/ids";
import type { Deps } from "../deps";
import { presentRulebooks, type RulebookResource } from "../presenters/rulebook";
import { rulebooksWithActiveRuns } from "./activity";
import { sameRuleSet, versionRules } from "./rule-versions";

/** What a new rulebook holds. */
export interface RulebookDraft {
  name: string;
  content: string;
  rules: RuleInput[];
}

/** The viewer a key is: its workspace and the owner it acts for. */
export function viewerOf(auth: AuthContext): RulebookViewer {
  return { workspaceId: auth.workspaceId, ownerId: auth.ownerId };
}

/** Statements creating one rulebook with rule set version 1; returns them and the row. */
export function newRulebookStatements(
  deps: Pick<Deps, "db">,
  auth: AuthContext,
  draft: RulebookDraft,
  now: number,
): { row: RulebookRow; statements: BatchItem<"sqlite">[] } {
  const at = nowIso(now);
  const row: RulebookRow = {
    id: newId("rb", now),
    workspaceId: auth.workspaceId,
    ownerId: auth.ownerId,
    name: draft.name,
    content: draft.content,
    isTemplate: false,
    templateKey: null,
    ruleSetVersionId: newId("rsv", now),
    createdBy: auth.keyId,
    updatedBy: auth.keyId,
    createdAt: at,
    updatedAt: at,
    deletedAt: null,
  };
  const statements = [
    insertRulebookStatement(deps.db, row),
    ...insertRuleSetStatements(deps.db, {
      id: row.ruleSetVersionId,
      rulebookId: row.id,
      number: 1,
      rules: versionRules(draft.rules, new Map()),
      createdBy: auth.keyId,
      createdAt: at,
    }),
  ];
  return { row, statements };
}

/** Creates rulebooks in one D1 batch (all or none) and presents them in the given order. */
export async function createRulebooks(
  deps: Pick<Deps, "db" | "clock">,
  auth: AuthContext,
  drafts: readonly RulebookDraft[],
): Promise<RulebookResource[]> {
  const now = deps.clock.now();
  const built = drafts.map((draft) => newRulebookStatements(deps, auth, draft, now));
  await runBatch(
    deps.db,
    built.flatMap((b) => b.statements),
  );
  return presentRulebooks(
    deps,
    auth,
    built.map((b) => b.row),
  );
}

/** A rulebook the key may see, or 404. */
export async function visibleRulebook(
  deps: Pick<Deps, "db">,
  auth: AuthContext,
  id: string,
): Promise<RulebookRow> {
  const row = await findVisibleRulebook(deps.db, viewerOf(auth), id);
  if (!row) throw notFound("Rulebook", id);
  return row;
}

function refuseTemplate(row: RulebookRow, action: string): void {
  if (row.isTemplate) {
    throw new ApiError(
      "forbidden",
      `Rulebook ${row.id} is a shared template and read-only; it cannot be ${action}. Create a rulebook of your own from its rules instead.`,
    );
  }
}

/** The fields a PATCH may change. */
export interface RulebookChange {
  name?: string | undefined;
  content?: string | undefined;
  rules?: RuleInput[] | undefined;
}

/** How often an edit that lost a race for the next rule set number is tried again. */
const EDIT_ATTEMPTS = 3;

function isUniqueViolation(error: unknown): boolean {
  return (
    error instanceof Error && /UNIQUE constraint failed/i.test(`${error.message} ${error.cause}`)
  );
}

/**
 * Changes a rulebook. New rules make a new immutable rule set version (the old ones stay
 * as they were for every workflow and run that refers to them); unchanged rules keep the
 * current version. Templates answer 403, rulebooks of another owner 404.
 */
export async function updateRulebook(
  deps: Pick<Deps, "db" | "clock">,
  auth: AuthContext,
  id: string,
  change: RulebookChange,
): Promise<RulebookResource> {
  for (let attempt = 1; ; attempt++) {
    const row = await visibleRulebook(deps, auth, id);
    refuseTemplate(row, "changed");
    const at = nowIso(deps.clock.now());
    const statements: BatchItem<"sqlite">[] = [];
    let ruleSetVersionId: string | undefined;
    if (change.rules !== undefined) {
      const [history, current, number] = await Promise.all([
        ruleHistory(deps.db, row.id),
        rulesOfSets(deps.db, [row.ruleSetVersionId]),
        ruleSetNumber(deps.db, row.ruleSetVersionId),
      ]);
      const next = versionRules(change.rules, history);
      if (!sameRuleSet(next, current.get(row.ruleSetVersionId) ?? [])) {
        ruleSetVersionId = newId("rsv");
        statements.push(
          ...insertRuleSetStatements(deps.db, {
            id: ruleSetVersionId,
            rulebookId: row.id,
            number: number + 1,
            rules: next,
            createdBy: auth.keyId,
            createdAt: at,
          }),
        );
      }
    }
    statements.push(
      updateRulebookStatement(deps.db, row.id, {
        ...(change.name === undefined ? {} : { name: change.name }),
        ...(change.content === undefined ? {} : { content: change.content }),
        // Only a new rule set moves the pointer: a name-only edit racing a rules edit must
        // not put the older set back.
        ...(ruleSetVersionId === undefined ? {} : { ruleSetVersionId }),
        updatedBy: auth.keyId,
        updatedAt: at,
      }),
    );
    try {
      await runBatch(deps.db, statements);
    } catch (error) {
      // Another edit appended the same rule set number first: the batch changed nothing.
      if (!isUniqueViolation(error)) throw error;
      if (attempt >= EDIT_ATTEMPTS) {
        throw new ApiError(
          "conflict",
          `Rulebook ${id} is being changed by another request; retry.`,
        );
      }
      continue;
    }
    const [resource] = await presentRulebooks(deps, auth, [await visibleRulebook(deps, auth, id)]);
    if (!resource) throw notFound("Rulebook", id);
    return resource;
  }
}

/** Deletes a rulebook: templates 403, another owner's 404, 409 while a workflow run uses it. */
export async function deleteRulebook(
  deps: Pick<Deps, "db" | "clock">,
  auth: AuthContext,
  id: string,
  by: AuditedBy,
): Promise<void> {
  const row = await visibleRulebook(deps, auth, id);
  refuseTemplate(row, "deleted");
  if ((await rulebooksWithActiveRuns(deps, [row.id])).has(row.id)) {
    throw new ApiError(
      "conflict",
      `Rulebook ${id} has a workflow run queued or processing; delete it once the run has ended.`,
    );
  }
  await markDeleted(
    deps.db,
    { id: row.id, workspaceId: auth.workspaceId },
    nowIso(deps.clock.now()),
    by,
  );
}
