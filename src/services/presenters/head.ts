import type { HeadRow, HeadStatus, WithLatest } from "../../db/repos/versioned-heads";

/** A head on the wire, the same for profiles and report templates (routes/heads/schemas.ts). */
export interface HeadWire {
  id: string;
  name: string | null;
  description: string | null;
  status: HeadStatus;
  anonymous: boolean;
  latest_version: number;
  created_by: string;
  updated_by: string;
  created_at: string;
  updated_at: string;
}

/** A head with its latest version on the wire, as single reads and changes answer. */
export interface HeadWithLatestWire<Version> extends HeadWire {
  latest: Version;
}

/** Renders a head row for the wire. */
export function presentHead(row: HeadRow): HeadWire {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    status: row.status,
    anonymous: row.anonymous,
    latest_version: row.latestVersion,
    created_by: row.createdBy,
    updated_by: row.updatedBy,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

/** Renders a head with its latest version, as single reads and changes answer. */
export function presentWithLatest<Row, Version>(
  resource: { presentVersion(row: Row): Version },
  found: WithLatest<Row>,
): HeadWithLatestWire<Version> {
  return { ...presentHead(found.head), latest: resource.presentVersion(found.latest) };
}
