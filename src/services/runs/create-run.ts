import type { Database } from "../../db/client";
import { findProfile, findProfileVersion } from "../../db/repos/profiles";
import { findReportTemplate, findReportTemplateVersion } from "../../db/repos/report-templates";
import type { RunRow, SnapshotRow } from "../../db/repos/runs";
import { findVideos, type VideoRow } from "../../db/repos/videos";
import { EXECUTION_PROFILES, type ExecutionProfileRef } from "../../domain/execution-profiles";
import { ApiError, notFound } from "../../errors/api-error";
import { nowIso } from "../../lib/clock";
import { newId } from "../../lib/ids";
import { refuseDeleted } from "../deletion/refuse-deleted";
import type { Deps } from "../deps";
import { videoMedia } from "../media/urls";

/** POST /runs for an analysis, as the route validated it. */
export interface CreateAnalysisRun {
  workspaceId: string;
  requestId: string;
  sourceIds: string[];
  profileId: string;
  profileVersion: number | undefined;
  reportTemplateId: string | undefined;
  reportTemplateVersion: number | undefined;
  formats: ("json" | "markdown")[];
  executionProfileRef: ExecutionProfileRef;
  locale: string;
  executeNow: boolean;
}

/** Seconds a run created with `execute_now: false` waits in the queue before it starts. */
export const DEFERRED_START_SECONDS = 60;

/**
 * The sources in `source_ids` order, read in one query. Checked in that order too, so the
 * first id that is unknown (404) or not completed (409) is the one the error names.
 */
export async function completedSources(
  db: Database,
  workspaceId: string,
  sourceIds: readonly string[],
): Promise<VideoRow[]> {
  const byId = new Map((await findVideos(db, workspaceId, sourceIds)).map((v) => [v.id, v]));
  await refuseDeleted(db, workspaceId, sourceIds, byId);
  return sourceIds.map((id) => {
    const video = byId.get(id);
    if (!video) throw notFound("Video", id);
    if (video.status !== "completed") {
      throw new ApiError(
        "conflict",
        `Video ${id} is ${video.status}; only completed, searchable videos can be analysed.`,
      );
    }
    return video;
  });
}

/**
 * Admits an analysis run: every source a completed video of the workspace, the profile and
 * template versions resolved (latest when omitted) and frozen with the inputs in immutable
 * snapshots, then handed to the run's object, which persists it and queues it.
 */
export async function createAnalysisRun(
  deps: Pick<Deps, "db" | "objects">,
  input: CreateAnalysisRun,
): Promise<RunRow> {
  const { db } = deps;
  const sources = await completedSources(db, input.workspaceId, input.sourceIds);

  const head = await findProfile(db, input.workspaceId, input.profileId);
  if (!head) throw notFound("Profile", input.profileId);
  const profileVersion = input.profileVersion ?? head.latestVersion;
  const profile = await findProfileVersion(db, input.workspaceId, head.id, profileVersion);
  if (!profile) throw notFound(`Version ${profileVersion} of profile`, head.id);

  let template: { id: string; version: number } | null = null;
  if (input.reportTemplateId !== undefined) {
    const templateHead = await findReportTemplate(db, input.workspaceId, input.reportTemplateId);
    if (!templateHead) throw notFound("Report template", input.reportTemplateId);
    const version = input.reportTemplateVersion ?? templateHead.latestVersion;
    if (!(await findReportTemplateVersion(db, input.workspaceId, templateHead.id, version))) {
      throw notFound(`Version ${version} of report template`, templateHead.id);
    }
    template = { id: templateHead.id, version };
  }

  const now = nowIso();
  const runId = newId("run");
  const profileSnapshot: SnapshotRow = {
    id: newId("snap"),
    runId,
    kind: "profile",
    content: {
      profile_id: head.id,
      profile_version: profile.version,
      name: head.name,
      instructions: profile.instructions,
      answer_specs: profile.answerSpecs,
    },
    createdAt: now,
  };
  const inputSnapshot = inputSnapshotRow(runId, now, input, sources, {
    formats: input.formats,
    report_template:
      template === null ? null : { report_template_id: template.id, version: template.version },
  });
  const run = newRunRow({
    id: runId,
    workspaceId: input.workspaceId,
    kind: "analysis",
    sourceIds: input.sourceIds,
    executionProfileRef: input.executionProfileRef,
    locale: input.locale,
    profileId: head.id,
    profileVersion: profile.version,
    reportTemplateId: template?.id ?? null,
    reportTemplateVersion: template?.version ?? null,
    formats: input.formats,
    profileSnapshotId: profileSnapshot.id,
    inputSnapshotId: inputSnapshot.id,
    workflowId: null,
    rulebookId: null,
    ruleSetVersionId: null,
    requestId: input.requestId,
    createdAt: now,
  });
  await queueRun(deps, run, [profileSnapshot, inputSnapshot], input.executeNow);
  return run;
}

/**
 * The input snapshot every run keeps: its sources as they were when it was admitted, the
 * execution profile with its budget, the locale, and what the run's kind adds (`extra`).
 */
export function inputSnapshotRow(
  runId: string,
  createdAt: string,
  input: { sourceIds: string[]; executionProfileRef: ExecutionProfileRef; locale: string },
  sources: VideoRow[],
  extra: Record<string, unknown>,
): SnapshotRow {
  return {
    id: newId("snap"),
    runId,
    kind: "input",
    content: {
      source_ids: input.sourceIds,
      sources: sources.map((video) => ({
        video_id: video.id,
        filename: video.filename,
        title: videoMedia(video).title ?? null,
        duration: video.duration,
        index_engine: videoMedia(video).engine ?? null,
        updated_at: video.updatedAt,
      })),
      execution_profile_ref: input.executionProfileRef,
      budget: EXECUTION_PROFILES[input.executionProfileRef],
      locale: input.locale,
      ...extra,
    },
    createdAt,
  };
}

/** What a run's kind decides; every other column starts the same for all runs. */
type NewRun = Pick<
  RunRow,
  | "id"
  | "workspaceId"
  | "kind"
  | "sourceIds"
  | "executionProfileRef"
  | "locale"
  | "profileId"
  | "profileVersion"
  | "reportTemplateId"
  | "reportTemplateVersion"
  | "formats"
  | "profileSnapshotId"
  | "inputSnapshotId"
  | "workflowId"
  | "rulebookId"
  | "ruleSetVersionId"
  | "requestId"
  | "createdAt"
>;

/** A run as admitted: queued, with nothing produced yet. */
export function newRunRow(fields: NewRun): RunRow {
  return {
    ...fields,
    status: "queued",
    subState: "accepted",
    outputSnapshotId: null,
    cancelRequested: false,
    resultState: null,
    reasonCode: null,
    limitations: [],
    error: null,
    usage: null,
    engine: null,
    summary: null,
    reportId: null,
    updatedAt: fields.createdAt,
  };
}

/** Hands a new run to its object, which stores it and queues it (now, or deferred). */
export async function queueRun(
  deps: Pick<Deps, "objects">,
  run: RunRow,
  snapshots: SnapshotRow[],
  executeNow: boolean,
): Promise<void> {
  await deps.objects.runs
    .getByName(run.id)
    .create(run, snapshots, executeNow ? 0 : DEFERRED_START_SECONDS);
}
