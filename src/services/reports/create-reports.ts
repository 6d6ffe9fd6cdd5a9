import { runBatch } from "../../db/client";
import { insertEventStatement } from "../../db/repos/events";
import { findReportTemplateVersion } from "../../db/repos/report-templates";
import { rulesOfSets } from "../../db/repos/rulebooks";
import {
  type AnswerRow,
  allAnswers,
  findSnapshots,
  insertReportStatement,
  type ReportRow,
  type RunRow,
} from "../../db/repos/runs";
import type { AnswerType } from "../../domain/answers";
import type { TemplateBlock } from "../../domain/report-templates";
import type { Rule } from "../../domain/rulebooks";
import { nowIso } from "../../lib/clock";
import { sha256Hex } from "../../lib/crypto";
import { newId } from "../../lib/ids";
import { reportKey, reportManifestKey } from "../../lib/object-keys";
import { nameAtVersion } from "../../lib/refs";
import type { Deps } from "../deps";
import { reportResource } from "../presenters/report";
import { runNotices } from "../understanding";
import { buildReport } from "./build";
import { citedInModel } from "./cited";
import { renderModel } from "./render";
import type { RenderInput, RenderTemplate, StoredAnswer } from "./types";
import { workflowHeadings } from "./workflow-headings";

/** The report formats of the spec's Report section. */
export type ReportFormat = "json" | "markdown";

const DEFAULT_BLOCK: Record<AnswerType, TemplateBlock["type"]> = {
  verdict: "verdict",
  measurement: "measurement",
  timeline: "timeline",
  enumeration: "table",
  comparison: "table",
  retrieval: "table",
  synthesis: "narrative",
};

/**
 * The template used when a run names none: one block per answer, chosen by answer type, headed
 * by `headings` (a workflow's rule titles) where given, else by the answer key.
 */
export function defaultTemplate(
  answers: AnswerRow[],
  locale: string,
  headings: Record<string, string> = {},
): RenderTemplate {
  return {
    id: "default",
    version: 1,
    language: locale.split("-")[0] === "ja" ? "ja" : "en",
    blocks: answers.map((answer) => ({
      type: DEFAULT_BLOCK[answer.type],
      answer_key: answer.key,
      label: headings[answer.key] ?? answer.key,
    })),
  };
}

/**
 * What a report names as the run's profile: the profile version of an analysis run; for a
 * workflow run its rulebook, written as reports have always written it (`rb_…@1`).
 */
function profileRef(run: RunRow): string {
  if (run.kind === "workflow") return `${run.rulebookId}@1`;
  return `${run.profileId}@${run.profileVersion}`;
}

/** A stored answer as rendering reads it. */
function storedAnswer(row: AnswerRow): StoredAnswer {
  const answer: StoredAnswer = {
    id: row.id,
    key: row.key,
    type: row.type,
    result_state: row.resultState,
    coverage: row.coverage,
    event_count: row.eventCount,
    evidence_count: row.evidenceCount,
    answer_payload: row.payload,
  };
  if (row.reasonCode !== null) answer.reason_code = row.reasonCode;
  return answer;
}

async function templateFor(
  deps: Pick<Deps, "db">,
  run: RunRow,
  answers: AnswerRow[],
  inline: RenderTemplate | undefined,
  headings: Record<string, string> | undefined,
) {
  if (inline) return { template: inline, ref: nameAtVersion(inline.id, inline.version) };
  if (run.reportTemplateId !== null && run.reportTemplateVersion !== null) {
    const version = await findReportTemplateVersion(
      deps.db,
      run.workspaceId,
      run.reportTemplateId,
      run.reportTemplateVersion,
    );
    if (version) {
      return {
        template: {
          id: run.reportTemplateId,
          version: version.version,
          language: version.language,
          blocks: version.blocks,
        },
        ref: nameAtVersion(version.templateName ?? run.reportTemplateId, version.version),
      };
    }
  }
  const fallback = defaultTemplate(answers, run.locale, headings);
  return { template: fallback, ref: nameAtVersion(fallback.id, fallback.version) };
}

interface ReportOptions {
  formats: ReportFormat[];
  inlineTemplate?: RenderTemplate;
  /** A workflow run's frozen rules when the caller holds them; else read from its rule set. */
  rules?: Rule[];
  requestId: string;
}

/** The run's sources as its input snapshot froze them. */
interface SnapshotSource {
  video_id: string;
  title: string | null;
  filename: string;
  duration: number | null;
}

/** A workflow run's rules: the caller's, else its rule set version's (which never changes). */
async function rulesOf(deps: Pick<Deps, "db">, run: RunRow, given: Rule[] | undefined) {
  if (given !== undefined || run.ruleSetVersionId === null) return given ?? [];
  return (await rulesOfSets(deps.db, [run.ruleSetVersionId])).get(run.ruleSetVersionId) ?? [];
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
  const rows = await renderReports(deps, run, await allAnswers(deps.db, run.id), options);
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
  const { db } = deps;
  const input = (await findSnapshots(db, run.id)).find((s) => s.kind === "input")?.content as
    | { sources?: SnapshotSource[] }
    | undefined;
  const videos = (input?.sources ?? []).map((source) => ({
    id: source.video_id,
    title: source.title ?? source.filename,
    duration: source.duration ?? 0,
  }));
  const headings =
    run.kind === "workflow"
      ? workflowHeadings(
          await rulesOf(deps, run, options.rules),
          answers.map((answer) => answer.key),
          new Map(videos.map((video) => [video.id, video.title])),
        )
      : undefined;
  const { template, ref } = await templateFor(deps, run, answers, options.inlineTemplate, headings);
  // Stored state at report time, in `source_ids` order: the same run renders the same bytes.
  const notices = await runNotices(db, run.workspaceId, run.sourceIds);
  const renderInput: RenderInput = {
    run: {
      id: run.id,
      source_ids: run.sourceIds,
      profile_ref: profileRef(run),
      execution_profile_ref: run.executionProfileRef,
      limitations: run.limitations,
      kind: run.kind,
    },
    videos,
    notices,
    answers: answers.map(storedAnswer),
    template,
  };
  // One format-neutral model per request: every format and the manifest write it out.
  const model = buildReport(renderInput);
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
    const manifest = {
      content_identity: contentIdentity,
      answers: answers.map((answer) => ({
        answer_id: answer.id,
        answer_key: answer.key,
        result_state: answer.resultState,
      })),
      evidence: cited.map(({ answer_id, evidence }) => ({ answer_id, ...evidence })),
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
