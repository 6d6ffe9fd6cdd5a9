import type { Database } from "../../db/client";
import { findWorkspace } from "../../db/repos/workspaces";
import type { MediaProbe } from "../../domain/media";
import { withoutPrivateTags } from "../../domain/private-tags";

/**
 * The probe as a workspace may keep and index it: container tags that locate a person or
 * identify a device are dropped unless the workspace opts in (`index_private_tags`).
 */
export async function probeForWorkspace(
  db: Database,
  workspaceId: string,
  probe: MediaProbe,
): Promise<MediaProbe> {
  const workspace = await findWorkspace(db, workspaceId);
  if (workspace?.indexPrivateTags) return probe;
  return { ...probe, tags: withoutPrivateTags(probe.tags) };
}
