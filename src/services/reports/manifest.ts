import type { ReportRow } from "../../db/repos/runs";
import type { EvidenceRef } from "../../domain/evidence";
import type { RenderTemplate, RunNoticeInput } from "./types";

/**
 * What a report was rendered from beyond the run's stored rows, kept so a read can render it
 * again with a source deleted since withheld and nothing else changed.
 */
export interface IssuedRendering {
  /** The run's notices when the report was made. */
  notices: RunNoticeInput[];
  /** Sources already deleted then, withheld from the stored bytes. */
  redacted: string[];
  /** An inline template (stored and default templates are found again from the run). */
  template?: RenderTemplate;
}

/** A report's manifest as stored: its trust bindings, and how it was rendered. */
export type StoredManifest = {
  content_identity: string;
  answers: { answer_id: string; answer_key: string; result_state: string }[];
  evidence: (EvidenceRef & { answer_id: string })[];
  /** Absent on reports made before deleted sources were withheld. */
  render?: IssuedRendering;
};

/**
 * A report's manifest: in R2 under the key its row names, or in the row itself for reports
 * made before manifests moved to R2.
 */
export async function storedManifest(row: ReportRow, bucket: R2Bucket): Promise<StoredManifest> {
  const key = row.manifest.object_key;
  if (typeof key !== "string") return row.manifest as StoredManifest;
  const object = await bucket.get(key);
  if (!object) throw new Error(`the manifest of report ${row.id} is missing`);
  return (await object.json()) as StoredManifest;
}
