import type { ReportRow, RunRow } from "../../db/repos/runs";
import { type DeletedSources, SOURCE_DELETED } from "../deletion/redact";
import type { Deps } from "../deps";
import { runNotices } from "../media/understood";
import { reportInput, storedAnswersOf } from "./input";
import { type StoredManifest, storedManifest } from "./manifest";
import { renderReport } from "./render";

const decoder = new TextDecoder();

async function storedContent(row: ReportRow, bucket: R2Bucket): Promise<string> {
  const object = await bucket.get(row.objectKey);
  if (!object) throw new Error(`the content of report ${row.id} is missing`);
  return object.text();
}

/**
 * The notices the report was rendered with. Reports made before these were kept read them from
 * stored state, where a source deleted since is noticed only as deleted: it is dropped here, so
 * its withholding changes none of the report's verdicts.
 */
async function issuedNotices(
  deps: Pick<Deps, "db">,
  run: RunRow,
  manifest: StoredManifest,
  deleted: DeletedSources,
) {
  if (manifest.render) return manifest.render.notices;
  const now = await runNotices(deps.db, run.workspaceId, run.sourceIds);
  return now.filter((n) => !(n.code === SOURCE_DELETED && deleted.has(n.video_id)));
}

/**
 * A report's content as every read shows it. The stored bytes, whose SHA-256 is the report's
 * `content_identity`, stay as issued; while none of the run's sources has been deleted since,
 * they are what a read returns. Once one has, the report is rendered again from the same
 * stored answers, template and notices with that source withheld (`buildReport`'s
 * `redacted`): the same sections, verdicts and citations, without its quotes, title or links.
 */
export async function readableContent(
  deps: Pick<Deps, "db" | "bucket">,
  row: ReportRow,
  run: RunRow,
  deleted: DeletedSources,
): Promise<string> {
  if (deleted.size === 0) return storedContent(row, deps.bucket);
  const manifest = await storedManifest(row, deps.bucket);
  const withheld = new Set(manifest.render?.redacted ?? []);
  if ([...deleted].every((id) => withheld.has(id))) return storedContent(row, deps.bucket);
  const answers = await storedAnswersOf(deps.db, run.id);
  const template = manifest.render?.template;
  const { input } = await reportInput(deps, run, answers, {
    // A report made before templates were kept, from an inline template, renders with the
    // run's template instead: its layout is lost, what it withholds is not.
    ...(template ? { inlineTemplate: template } : {}),
    notices: await issuedNotices(deps, run, manifest, deleted),
    redacted: deleted,
  });
  return decoder.decode(renderReport(input, row.format).bytes);
}
