import { runBatch } from "../../db/client";
import { insertEventStatement } from "../../db/repos/events";
import type { AnswerRow } from "../../db/repos/runs";
import { insertReportStatement, type ReportRow, type RunRow } from "../../db/repos/runs";
import type { Rule } from "../../domain/rulebooks";
import { nowIso } from "../../lib/clock";
import { sha256Hex } from "../../lib/crypto";
import { newId } from "../../lib/ids";
import { reportKey, reportManifestKey } from "../../lib/object-keys";
import { SOURCE_DELETED } from "../deletion/redact";
import type { Deps } from "../deps";
import { runNotices } from "../media/understood";
import { reportResource } from "../presenters/report";
import { buildReport } from "./build";
import { citedInModel } from "./cited";
import { reportInput, storedAnswersOf } from "./input";
import type { StoredManifest } from "./manifest";
import { renderModel } from "./render";
import type { RenderTemplate } from "./types";

/** The report formats of the spec's Report section. */
export type ReportFormat = "json" | "markdown";

interface ReportOptions {
  formats: ReportFormat[];
  inlineTemplate?: RenderTemplate;
  /** A workflow run's frozen rules when the caller holds them; else read from its rule set. */
  rules?: Rule[];
  requestId: string;
}

/**
 * Renders a completed run's stored answers (no re-analysis) into one immutable report per
 * format: bytes in R2 under a content identity (SHA-256), rows and `report.created` events
 * in one D1 batch. The same answers and template always give byte-identical content.
 */
export async function createReports(
  deps: Pick<Deps, "db" | "bucket">,
  run: RunRow,
  options: ReportOptions,
): Promise<ReportRow[]> {
  const rows = await renderReports(deps, run, await storedAnswersOf(deps.db, run.id), options);
  await runBatch(deps.db, reportStatements(deps.db, rows));
  return rows;
}

/** The statements that store report rows, each with its `report.created` event. */
export function reportStatements(db: Deps["db"], rows: ReportRow[]) {
  return rows.flatMap((row) => [
    insertReportStatement(db, row),
    insertEventStatement(db, {
      workspaceId: row.workspaceId,
      type: "report.created",
      data: { report: reportResource(row) },
      requestId: row.requestId,
    }),
  ]);
}

/**
 * Renders these answers of the run into one report per format and stores the bytes in R2,
 * returning the rows without writing them: the caller commits them (with the run's
 * completion, for automatic reports), so a row never names bytes that are not stored.
 */
export async function renderReports(
  deps: Pick<Deps, "db" | "bucket">,
  run: RunRow,
  answers: AnswerRow[],
  options: ReportOptions,
): Promise<ReportRow[]> {
  // Stored state at report time, in `source_ids` order: the same run renders the same bytes.
  const notices = await runNotices(deps.db, run.workspaceId, run.sourceIds);
  // Sources deleted by now are withheld from the start, and the manifest says so.
  const redacted = new Set(notices.filter((n) => n.code === SOURCE_DELETED).map((n) => n.video_id));
  const { input, ref } = await reportInput(deps, run, answers, {
    ...(options.inlineTemplate ? { inlineTemplate: options.inlineTemplate } : {}),
    ...(options.rules ? { rules: options.rules } : {}),
    notices,
    redacted,
  });
  // One format-neutral model per request: every format and the manifest write it out.
  const model = buildReport(input);
  const cited = citedInModel(model);
  const now = nowIso();
  const rows: ReportRow[] = [];
  for (const format of options.formats) {
    const rendered = renderModel(model, format);
    const contentIdentity = `sha256:${await sha256Hex(rendered.bytes)}`;
    const outputIdentity = `sha256:${await sha256Hex(JSON.stringify([run.id, format, ref, answers.map((a) => a.id)]))}`;
    const id = newId("rep");
    const objectKey = reportKey(run.id, id, format);
    await deps.bucket.put(objectKey, rendered.bytes, {
      httpMetadata: { contentType: `${rendered.content_type}; charset=utf-8` },
      customMetadata: { content_identity: contentIdentity },
    });
    // The manifest lists every answer and cited span: a workflow run's rules x videos would
    // outgrow a D1 value, so it is stored beside the content and the row names it.
    const manifestKey = reportManifestKey(run.id, id);
    const manifest: StoredManifest = {
      content_identity: contentIdentity,
      answers: answers.map((answer) => ({
        answer_id: answer.id,
        answer_key: answer.key,
        result_state: answer.resultState,
      })),
      evidence: cited.map(({ answer_id, evidence }) => ({ answer_id, ...evidence })),
      // What a read needs to render the report again with a source deleted later withheld.
      render: {
        notices,
        redacted: input.redacted ?? [],
        ...(options.inlineTemplate ? { template: options.inlineTemplate } : {}),
      },
    };
    await deps.bucket.put(manifestKey, JSON.stringify(manifest), {
      httpMetadata: { contentType: "application/json; charset=utf-8" },
    });
    rows.push({
      id,
      runId: run.id,
      workspaceId: run.workspaceId,
      requestId: options.requestId,
      format,
      contentType: rendered.content_type,
      objectKey,
      contentIdentity,
      outputIdentity,
      analysisProfileRef: run.profileSnapshotId,
      reportTemplateRef: ref,
      manifest: { content_identity: contentIdentity, object_key: manifestKey },
      createdAt: now,
    });
  }
  return rows;
}
