import { and, desc, eq, getTableColumns, lt, max, type SQL, sql } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import type { PageQuery } from "../../lib/pagination";
import type { Database } from "../client";
import type { profiles, profileVersions, reportTemplates, reportTemplateVersions } from "../schema";

// Profiles and report templates are both versioned heads (the spec's Profile and report template
// heads section): a head row plus immutable, appended version rows. Everything here is the same for
// both; only what a version holds differs, and that is given by the version table.

/** At most this many versions per profile or report template (the spec's Limits section). */
const MAX_VERSIONS_PER_HEAD = 100;

/** The head tables; their columns are identical. */
type HeadTable = typeof profiles | typeof reportTemplates;
/** The version tables: the head id and version number, then what a version holds. */
type VersionTable = typeof profileVersions | typeof reportTemplateVersions;

/** A head row, the same for profiles and report templates. */
export type HeadRow = HeadTable["$inferSelect"];

/** A head's lifecycle state. */
export type HeadStatus = HeadRow["status"];

/** What a new head is given; status, latest version and last change follow from it. */
export type NewHead = Omit<HeadRow, "latestVersion" | "status" | "updatedBy" | "updatedAt">;

/** Who makes a change, and when. */
export interface Actor {
  keyId: string;
  at: string;
}

/** A head with its latest version. */
export interface WithLatest<Version> {
  head: HeadRow;
  latest: Version;
}

/** Why a new version was not appended. */
export type AppendRefusal = "not-found" | "archived" | "anonymous" | "full";

/** What appending a version did. */
export type AppendOutcome<Version> =
  | { outcome: "appended"; version: Version }
  | { outcome: AppendRefusal };

/** The SQL of one kind of versioned head; `Content` is what a version holds. */
export interface VersionedHeadRepo<Content, Version> {
  /** Creates a head and its version 1 in one batch. */
  insert(db: Database, head: NewHead, content: Content): Promise<WithLatest<Version>>;
  /**
   * Appends the next version, atomically: one D1 batch (a transaction, and D1 runs one
   * at a time) inserts `latest_version + 1` only while the head is active, named and under
   * the limit, then moves `latest_version` to the highest stored version. Concurrent calls
   * therefore get consecutive numbers; none is lost, duplicated or skipped.
   */
  appendVersion(
    db: Database,
    workspaceId: string,
    id: string,
    content: Content,
    actor: Actor,
  ): Promise<AppendOutcome<Version>>;
  /** One head of a workspace, or null when absent or in another workspace. */
  find(db: Database, workspaceId: string, id: string): Promise<HeadRow | null>;
  /** One head of a workspace with its latest version, or null. */
  findWithLatest(
    db: Database,
    workspaceId: string,
    id: string,
  ): Promise<WithLatest<Version> | null>;
  /** One version of a head of the workspace, with the head's name, or null. */
  findVersion(
    db: Database,
    workspaceId: string,
    id: string,
    version: number,
  ): Promise<{ version: Version; headName: string | null } | null>;
  /**
   * Archives a head (a no-op when already archived, so the first archival's time and key
   * are kept) and reads it back, in one batch.
   */
  archive(
    db: Database,
    workspaceId: string,
    id: string,
    actor: Actor,
  ): Promise<WithLatest<Version> | null>;
  /** Named heads of a workspace in one status, newest first, `limit + 1` rows. */
  list(db: Database, workspaceId: string, status: HeadStatus, page: PageQuery): Promise<HeadRow[]>;
}

/**
 * The repo of one kind of versioned head. `headId` is the column of `versions` naming the
 * head; `Content` names the other columns a version holds (instructions and answer specs, or
 * language and blocks), as its row type spells them.
 */
export function versionedHeadRepo<
  V extends VersionTable,
  Content extends Partial<V["$inferInsert"]>,
>(tables: {
  heads: HeadTable;
  versions: V;
  headId: AnySQLiteColumn;
}): VersionedHeadRepo<Content, V["$inferSelect"]> {
  const { heads, versions, headId } = tables;
  const scoped = (workspaceId: string, id: string) =>
    and(eq(heads.workspaceId, workspaceId), eq(heads.id, id));

  /**
   * INSERT ... SELECT of a new version from the head rows `where` selects. The statement is
   * positional, so the SELECT list follows the version table's columns in order: the head's
   * id, `version`, then the content and author bound as parameters (JSON columns encoded).
   */
  function insertVersion(
    db: Database,
    where: SQL | undefined,
    version: SQL,
    content: Content,
    actor: Actor,
  ) {
    const values: Record<string, unknown> = {
      ...content,
      createdBy: actor.keyId,
      createdAt: actor.at,
    };
    const selected = Object.fromEntries(
      Object.entries(getTableColumns(versions)).map(([key, column]) => {
        if (column === headId) return [key, heads.id];
        if (key === "version") return [key, version.as(column.name)];
        return [key, sql`${sql.param(values[key], column)}`.as(column.name)];
      }),
    );
    const source = db.select(selected).from(heads).where(where);
    return db.insert(versions).select(source.getSQL()).returning();
  }

  async function find(db: Database, workspaceId: string, id: string) {
    const rows = await db.select().from(heads).where(scoped(workspaceId, id)).limit(1);
    return rows[0] ?? null;
  }

  return {
    async insert(db, head, content) {
      const headRow: HeadRow = {
        ...head,
        status: "active",
        latestVersion: 1,
        updatedBy: head.createdBy,
        updatedAt: head.createdAt,
      };
      // Version 1 is written like every later one, so only `insertVersion` knows its columns.
      const author = { keyId: head.createdBy, at: head.createdAt };
      const [, [latest]] = await db.batch([
        db.insert(heads).values(headRow),
        insertVersion(db, eq(heads.id, head.id), sql`1`, content, author),
      ]);
      if (!latest) throw new Error(`Version 1 of head ${head.id} was not stored.`);
      return { head: headRow, latest };
    },

    async appendVersion(db, workspaceId, id, content, actor) {
      const appendable = and(
        scoped(workspaceId, id),
        eq(heads.status, "active"),
        eq(heads.anonymous, false),
        lt(heads.latestVersion, MAX_VERSIONS_PER_HEAD),
      );
      const highest = db
        .select({ version: max(versions.version) })
        .from(versions)
        .where(eq(headId, id));
      const [inserted] = await db.batch([
        insertVersion(db, appendable, sql`${heads.latestVersion} + 1`, content, actor),
        db
          .update(heads)
          .set({ latestVersion: sql`(${highest})`, updatedBy: actor.keyId, updatedAt: actor.at })
          .where(and(eq(heads.id, id), lt(heads.latestVersion, sql`(${highest})`))),
      ]);
      const version = inserted[0];
      if (version) return { outcome: "appended", version };
      return refusalOf(await find(db, workspaceId, id));
    },

    find,

    async findWithLatest(db, workspaceId, id) {
      const rows = await db
        .select({ head: heads, latest: versions })
        .from(heads)
        .innerJoin(versions, and(eq(headId, heads.id), eq(versions.version, heads.latestVersion)))
        .where(scoped(workspaceId, id))
        .limit(1);
      return rows[0] ?? null;
    },

    async findVersion(db, workspaceId, id, version) {
      const rows = await db
        .select({ version: versions, headName: heads.name })
        .from(versions)
        .innerJoin(heads, eq(heads.id, headId))
        .where(
          and(eq(heads.workspaceId, workspaceId), eq(headId, id), eq(versions.version, version)),
        )
        .limit(1);
      return rows[0] ?? null;
    },

    async archive(db, workspaceId, id, actor) {
      // Two single-table reads: a D1 batch answers rows as objects, so a join of tables that
      // share column names (created_at, ...) would mix their values up.
      const where = scoped(workspaceId, id);
      const [, found, latest] = await db.batch([
        db
          .update(heads)
          .set({ status: "archived", updatedBy: actor.keyId, updatedAt: actor.at })
          .where(and(where, eq(heads.status, "active"))),
        db.select().from(heads).where(where).limit(1),
        db
          .select({ version: versions })
          .from(versions)
          .where(
            and(
              eq(headId, id),
              eq(
                versions.version,
                db.select({ version: heads.latestVersion }).from(heads).where(where),
              ),
            ),
          )
          .limit(1),
      ]);
      const [head] = found;
      const version = latest[0]?.version;
      return head && version ? { head, latest: version } : null;
    },

    async list(db, workspaceId, status, page) {
      const afterId = page.after?.[0];
      return db
        .select()
        .from(heads)
        .where(
          and(
            eq(heads.workspaceId, workspaceId),
            eq(heads.status, status),
            eq(heads.anonymous, false),
            typeof afterId === "string" ? lt(heads.id, afterId) : undefined,
          ),
        )
        .orderBy(desc(heads.id))
        .limit(page.limit + 1);
    },
  };
}

/**
 * Why a head took no new version, read after the atomic append inserted nothing: it is
 * missing, archived, anonymous or at the limit. Archiving and anonymity never revert and
 * versions never shrink, so an active, named head that refused must be full.
 */
function refusalOf(head: HeadRow | null): { outcome: AppendRefusal } {
  if (head === null) return { outcome: "not-found" };
  if (head.status === "archived") return { outcome: "archived" };
  if (head.anonymous) return { outcome: "anonymous" };
  return { outcome: "full" };
}
