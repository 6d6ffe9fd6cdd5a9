import type { Database } from "../client";
import { profiles, profileVersions } from "../schema";
import { versionedHeadRepo } from "./versioned-heads";

/** A profile version row. */
export type ProfileVersionRow = typeof profileVersions.$inferSelect;
/** What a profile version holds. */
export type ProfileContent = Pick<ProfileVersionRow, "instructions" | "answerSpecs">;

/** The SQL of profiles: the versioned-head repo over their two tables. */
export const profileRepo = versionedHeadRepo<typeof profileVersions, ProfileContent>({
  heads: profiles,
  versions: profileVersions,
  headId: profileVersions.profileId,
});

/** One profile of a workspace, or null when absent or in another workspace. */
export const findProfile = profileRepo.find;

/** One version of a profile of the workspace, or null. */
export async function findProfileVersion(
  db: Database,
  workspaceId: string,
  id: string,
  version: number,
): Promise<ProfileVersionRow | null> {
  const found = await profileRepo.findVersion(db, workspaceId, id, version);
  return found?.version ?? null;
}
