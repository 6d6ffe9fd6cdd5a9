import { and, desc, eq, exists, isNull, lt, or, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { AuditedBy } from "../../domain/audit";
import { type Rule, type RuleKind, ruleKindOf } from "../../domain/rulebooks";
import type { PageQuery } from "../../lib/pagination";
import type { Database } from "../client";
import { rulebooks, ruleSetVersions, rules } from "../schema";
import { auditStatement } from "./audit-log";

/** A rulebook row. */
export type RulebookRow = typeof rulebooks.$inferSelect;

/** Who may see a rulebook: its owner in its workspace; templates are seen by everyone. */
export interface RulebookViewer {
  workspaceId: string;
  ownerId: string;
}

/**
 * Rules travel to D1 as one JSON parameter per chunk (read back with json_each), because a
 * statement takes at most 100 bound parameters; this keeps each parameter well under D1's
 * 2 MB value limit.
 */
const RULE_CHUNK_CHARS = 400_000;

function visibleTo(viewer: RulebookViewer): SQL | undefined {
  return and(
    isNull(rulebooks.deletedAt),
    or(
      eq(rulebooks.isTemplate, true),
      and(eq(rulebooks.workspaceId, viewer.workspaceId), eq(rulebooks.ownerId, viewer.ownerId)),
    ),
  );
}

/** One rulebook the viewer may see (its own or a template), or null. */
export async function findVisibleRulebook(
  db: Database,
  viewer: RulebookViewer,
  id: string,
): Promise<RulebookRow | null> {
  const rows = await db
    .select()
    .from(rulebooks)
    .where(and(eq(rulebooks.id, id), visibleTo(viewer)))
    .limit(1);
  return rows[0] ?? null;
}

/** The viewer's rulebooks and the templates, most recently updated first, `limit + 1` rows. */
export async function listVisibleRulebooks(
  db: Database,
  viewer: RulebookViewer,
  page: PageQuery,
): Promise<RulebookRow[]> {
  const conditions: (SQL | undefined)[] = [visibleTo(viewer)];
  const [afterUpdated, afterId] = page.after ?? [];
  if (typeof afterUpdated === "string" && typeof afterId === "string") {
    conditions.push(
      or(
        lt(rulebooks.updatedAt, afterUpdated),
        and(eq(rulebooks.updatedAt, afterUpdated), lt(rulebooks.id, afterId)),
      ),
    );
  }
  return db
    .select()
    .from(rulebooks)
    .where(and(...conditions))
    .orderBy(desc(rulebooks.updatedAt), desc(rulebooks.id))
    .limit(page.limit + 1);
}

/** The rules of each rule set version, in order, keyed by version id. */
export async function rulesOfSets(
  db: Database,
  ruleSetVersionIds: string[],
): Promise<Map<string, Rule[]>> {
  const bySet = new Map<string, Rule[]>(ruleSetVersionIds.map((id) => [id, []]));
  if (ruleSetVersionIds.length === 0) return bySet;
  const rows = await db
    .select()
    .from(rules)
    // One JSON parameter, whatever the count: a statement takes at most 100 parameters.
    .where(
      sql`${rules.ruleSetVersionId} IN (SELECT value FROM json_each(${JSON.stringify([...bySet.keys()])}))`,
    )
    .orderBy(rules.ruleSetVersionId, rules.position);
  for (const row of rows) {
    bySet.get(row.ruleSetVersionId)?.push({
      id: row.ruleId,
      title: row.title,
      description: row.description,
      severity: row.severity,
      kind: ruleKindOf(row),
      version: row.version,
    });
  }
  return bySet;
}

/** The number of a rule set version (1, 2, ...). */
export async function ruleSetNumber(db: Database, ruleSetVersionId: string): Promise<number> {
  const rows = await db
    .select({ number: ruleSetVersions.number })
    .from(ruleSetVersions)
    .where(eq(ruleSetVersions.id, ruleSetVersionId))
    .limit(1);
  return rows[0]?.number ?? 0;
}

/**
 * The newest version of every rule id a rulebook ever held, with the title and description
 * it had then, so a rule removed and added back continues its own numbering.
 */
export async function ruleHistory(
  db: Database,
  rulebookId: string,
): Promise<Map<string, Pick<Rule, "title" | "description" | "kind" | "version">>> {
  // SQLite returns the bare columns of the row holding max(version).
  const rows = await db.all<{
    rule_id: string;
    version: number;
    title: string;
    description: string;
    kind: RuleKind | null;
  }>(
    sql`SELECT r.rule_id, max(r.version) AS version, r.title, r.description, r.kind FROM ${rules} r JOIN ${ruleSetVersions} s ON s.id = r.rule_set_version_id WHERE s.rulebook_id = ${rulebookId} GROUP BY r.rule_id`,
  );
  return new Map(
    rows.map((row) => [
      row.rule_id,
      {
        title: row.title,
        description: row.description,
        kind: ruleKindOf(row),
        version: row.version,
      },
    ]),
  );
}

/** A new rule set version to write: its row facts and its rules. */
export interface NewRuleSet {
  id: string;
  rulebookId: string;
  number: number;
  rules: Rule[];
  createdBy: string;
  createdAt: string;
}

/** Statements that insert a rule set version and its rules. */
export function insertRuleSetStatements(db: Database, set: NewRuleSet): BatchItem<"sqlite">[] {
  const statements: BatchItem<"sqlite">[] = [
    db.insert(ruleSetVersions).values({
      id: set.id,
      rulebookId: set.rulebookId,
      number: set.number,
      ruleCount: set.rules.length,
      createdBy: set.createdBy,
      createdAt: set.createdAt,
    }),
  ];
  let chunk: unknown[][] = [];
  let chunkChars = 0;
  let start = 0;
  const flush = () => {
    if (chunk.length === 0) return;
    // INSERT … SELECT names every column in table order, which this SELECT follows.
    statements.push(
      db
        .insert(rules)
        .select(
          sql`SELECT ${set.id}, j.key + ${start}, json_extract(j.value, '$[0]'), json_extract(j.value, '$[1]'), json_extract(j.value, '$[2]'), json_extract(j.value, '$[3]'), json_extract(j.value, '$[4]'), json_extract(j.value, '$[5]') FROM json_each(${JSON.stringify(chunk)}) AS j`,
        ),
    );
    start += chunk.length;
    chunk = [];
    chunkChars = 0;
  };
  for (const rule of set.rules) {
    const tuple = [rule.id, rule.title, rule.description, rule.severity, rule.version, rule.kind];
    const chars = JSON.stringify(tuple).length;
    if (chunkChars + chars > RULE_CHUNK_CHARS) flush();
    chunk.push(tuple);
    chunkChars += chars;
  }
  flush();
  return statements;
}

/** The statement that inserts a rulebook row. */
export function insertRulebookStatement(db: Database, row: RulebookRow): BatchItem<"sqlite"> {
  return db.insert(rulebooks).values(row);
}

/** The statement that moves a rulebook's fields (never a template's). */
export function updateRulebookStatement(
  db: Database,
  id: string,
  change: Partial<Pick<RulebookRow, "name" | "content" | "ruleSetVersionId">> &
    Pick<RulebookRow, "updatedBy" | "updatedAt">,
): BatchItem<"sqlite"> {
  return db
    .update(rulebooks)
    .set(change)
    .where(and(eq(rulebooks.id, id), eq(rulebooks.isTemplate, false), isNull(rulebooks.deletedAt)));
}

/**
 * Marks a rulebook of the workspace deleted, with its audit entry (its name) in the same batch;
 * its rule set versions stay for what refers to them.
 */
export async function deleteRulebook(
  db: Database,
  rulebook: { id: string; workspaceId: string },
  deletedAt: string,
  by: AuditedBy,
): Promise<void> {
  const { id, workspaceId } = rulebook;
  const deletable = and(
    eq(rulebooks.id, id),
    eq(rulebooks.workspaceId, workspaceId),
    eq(rulebooks.isTemplate, false),
    isNull(rulebooks.deletedAt),
  );
  const name = sql`json((select json_quote(${rulebooks.name}) from ${rulebooks} where ${rulebooks.id} = ${id}))`;
  await db.batch([
    auditStatement(
      db,
      {
        workspaceId,
        action: "rulebook.deleted",
        target: { type: "rulebook", id },
        changes: { name: { before: name } },
      },
      by,
      exists(db.select({ one: sql`1` }).from(rulebooks).where(deletable)),
    ),
    db.update(rulebooks).set({ deletedAt }).where(deletable),
  ]);
}
