import type { Database } from "../../db/client";
import { deletedVideoIds } from "../../db/repos/video-erasure";
import { ApiError } from "../../errors/api-error";

/**
 * Refuses a request naming a deleted video with 409 `video-deleted` naming the first such id.
 * Only ids the visible lookup (`found`) missed are checked, so the common case costs nothing.
 */
export async function refuseDeleted(
  db: Database,
  workspaceId: string,
  ids: readonly string[],
  found: ReadonlyMap<string, unknown>,
): Promise<void> {
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length === 0) return;
  const deleted = await deletedVideoIds(db, workspaceId, missing);
  const first = missing.find((id) => deleted.has(id));
  if (first !== undefined) {
    throw new ApiError("video-deleted", `Video ${first} was deleted; it cannot be analysed.`);
  }
}
