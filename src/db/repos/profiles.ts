import { and, desc, eq, lt, max, sql } from "drizzle-orm";
import type { PageQuery } from "../../lib/pagination";
import type { AnswerSpec } from "../../ports/answer-engine/port";
import type { Database } from "../client";
import { profiles, profileVersions } from "../schema";

/** At most this many versions per profile or report template (spec section 8). */
export const MAX_VERSIONS_PER_HEAD = 100;

/** A head's lifecycle state. */
export type HeadStatus = ProfileRow["status"];

/** Why a new version was not appended. */
export type AppendRefusal = "not-found" | "archived" | "anonymous" | "full";

/** What appending a version did. */
export type AppendOutcome<Version> =
  | { outcome: "appended"; version: Version }
  | { outcome: AppendRefusal };

/**
 * Why a head took no new version, read after the atomic append inserted nothing: it is
 * missing, archived, anonymous or at the limit. Archiving and anonymity never revert and
 * versions never shrink, so an active, named head that refused must be full.
 */
export function refusalOf(head: { status: HeadStatus; anonymous: boolean } | null): {
  outcome: AppendRefusal;
} {
  if (head === null) return { outcome: "not-found" };
  if (head.status === "archived") return { outcome: "archived" };
  if (head.anonymous) return { outcome: "anonymous" };
  return { outcome: "full" };
}

/** A profile head row. */
export type ProfileRow = typeof profiles.$inferSelect;
/** A profile version row. */
export type ProfileVersionRow = typeof profileVersions.$inferSelect;
/** A head with its latest version. */
export interface ProfileWithLatest {
  head: ProfileRow;
  latest: ProfileVersionRow;
}

/** Creates a head and its version 1 in one batch. */
export async function insertProfile(
  db: Database,
  head: Omit<ProfileRow, "latestVersion" | "status" | "updatedBy" | "updatedAt">,
  content: Pick<ProfileVersionRow, "instructions" | "answerSpecs">,
): Promise<ProfileWithLatest> {
  const headRow: ProfileRow = {
    ...head,
    status: "active",
    latestVersion: 1,
    updatedBy: head.createdBy,
    updatedAt: head.createdAt,
  };
  const latest: ProfileVersionRow = {
    profileId: head.id,
    version: 1,
    ...content,
    createdBy: head.createdBy,
    createdAt: head.createdAt,
  };
  await db.batch([db.insert(profiles).values(headRow), db.insert(profileVersions).values(latest)]);
  return { head: headRow, latest };
}

/**
 * Appends the next version, atomically: one D1 batch (a transaction, and D1 runs one
 * at a time) inserts `latest_version + 1` only while the head is active, named and under
 * the limit, then moves `latest_version` to the highest stored version. Concurrent calls
 * therefore get consecutive numbers; none is lost, duplicated or skipped.
 */
export async function appendProfileVersion(
  db: Database,
  workspaceId: string,
  profileId: string,
  content: { instructions: string; answerSpecs: AnswerSpec[] },
  actor: { keyId: string; at: string },
): Promise<AppendOutcome<ProfileVersionRow>> {
  const appendable = and(
    eq(profiles.id, profileId),
    eq(profiles.workspaceId, workspaceId),
    eq(profiles.status, "active"),
    eq(profiles.anonymous, false),
    lt(profiles.latestVersion, MAX_VERSIONS_PER_HEAD),
  );
  const highest = db
    .select({ version: max(profileVersions.version) })
    .from(profileVersions)
    .where(eq(profileVersions.profileId, profileId));
  const [inserted] = await db.batch([
    db
      .insert(profileVersions)
      .select(
        db
          .select({
            profileId: profiles.id,
            version: sql<number>`${profiles.latestVersion} + 1`.as("version"),
            instructions: sql<string>`${content.instructions}`.as("instructions"),
            answerSpecs: sql<string>`${JSON.stringify(content.answerSpecs)}`.as("answer_specs"),
            createdBy: sql<string>`${actor.keyId}`.as("created_by"),
            createdAt: sql<string>`${actor.at}`.as("created_at"),
          })
          .from(profiles)
          .where(appendable),
      )
      .returning(),
    db
      .update(profiles)
      .set({ latestVersion: sql`(${highest})`, updatedBy: actor.keyId, updatedAt: actor.at })
      .where(and(eq(profiles.id, profileId), lt(profiles.latestVersion, sql`(${highest})`))),
  ]);
  const version = inserted[0];
  if (version) return { outcome: "appended", version };
  const head = await findProfile(db, workspaceId, profileId);
  return refusalOf(head);
}

/** One head of a workspace, or null when absent or in another workspace. */
export async function findProfile(
  db: Database,
  workspaceId: string,
  id: string,
): Promise<ProfileRow | null> {
  const rows = await db
    .select()
    .from(profiles)
    .where(and(eq(profiles.workspaceId, workspaceId), eq(profiles.id, id)))
    .limit(1);
  return rows[0] ?? null;
}

/** One head of a workspace with its latest version, or null. */
export async function findProfileWithLatest(
  db: Database,
  workspaceId: string,
  id: string,
): Promise<ProfileWithLatest | null> {
  const rows = await db
    .select({ head: profiles, latest: profileVersions })
    .from(profiles)
    .innerJoin(
      profileVersions,
      and(
        eq(profileVersions.profileId, profiles.id),
        eq(profileVersions.version, profiles.latestVersion),
      ),
    )
    .where(and(eq(profiles.workspaceId, workspaceId), eq(profiles.id, id)))
    .limit(1);
  return rows[0] ?? null;
}

/** One version of a head of the workspace, or null. */
export async function findProfileVersion(
  db: Database,
  workspaceId: string,
  id: string,
  version: number,
): Promise<ProfileVersionRow | null> {
  const rows = await db
    .select({ version: profileVersions })
    .from(profileVersions)
    .innerJoin(profiles, eq(profiles.id, profileVersions.profileId))
    .where(
      and(
        eq(profiles.workspaceId, workspaceId),
        eq(profileVersions.profileId, id),
        eq(profileVersions.version, version),
      ),
    )
    .limit(1);
  return rows[0]?.version ?? null;
}

/**
 * Archives a head (a no-op when already archived, so the first archival's time and key
 * are kept) and reads it back, in one batch.
 */
export async function archiveProfile(
  db: Database,
  workspaceId: string,
  id: string,
  actor: { keyId: string; at: string },
): Promise<ProfileWithLatest | null> {
  // Two single-table reads: a D1 batch answers rows as objects, so a join of tables that
  // share column names (created_at, ...) would mix their values up.
  const scoped = and(eq(profiles.workspaceId, workspaceId), eq(profiles.id, id));
  const [, heads, latest] = await db.batch([
    db
      .update(profiles)
      .set({ status: "archived", updatedBy: actor.keyId, updatedAt: actor.at })
      .where(and(scoped, eq(profiles.status, "active"))),
    db.select().from(profiles).where(scoped).limit(1),
    db
      .select()
      .from(profileVersions)
      .where(
        and(
          eq(profileVersions.profileId, id),
          eq(
            profileVersions.version,
            db.select({ version: profiles.latestVersion }).from(profiles).where(scoped),
          ),
        ),
      )
      .limit(1),
  ]);
  const [found] = heads;
  const [version] = latest;
  return found && version ? { head: found, latest: version } : null;
}

/** Named heads of a workspace in one status, newest first, `limit + 1` rows. */
export async function listProfiles(
  db: Database,
  workspaceId: string,
  status: HeadStatus,
  page: PageQuery,
): Promise<ProfileRow[]> {
  const afterId = page.after?.[0];
  return db
    .select()
    .from(profiles)
    .where(
      and(
        eq(profiles.workspaceId, workspaceId),
        eq(profiles.status, status),
        eq(profiles.anonymous, false),
        typeof afterId === "string" ? lt(profiles.id, afterId) : undefined,
      ),
    )
    .orderBy(desc(profiles.id))
    .limit(page.limit + 1);
}
