import { runBatch } from "../../db/client";
import {
  activeRunsPage,
  endedRunsPage,
  eraseRunsStatements,
  liveVideosPage,
  runsToCancel,
  unerasedVideos,
} from "../../db/repos/workspace-erasure";
import {
  eraseFlatPage,
  type Family,
  type FlatTable,
  PROFILES,
  REPORT_TEMPLATES,
  RULEBOOKS,
  WEBHOOK_ENDPOINTS,
} from "../../db/repos/workspace-erasure-tables";
import { csvImportsPrefix, runReportsPrefix } from "../../lib/object-keys";
import type { Deps } from "../deps";
import { tombstoneVideo } from "./delete-video";
import { eraseVideo } from "./erase-video";

/** What erasing a workspace reaches. */
export type EraseWorkspaceDeps = Pick<
  Deps,
  "db" | "bucket" | "ports" | "clock" | "config" | "objects" | "queues" | "log"
>;

/** One erasure in progress: the workspace and the instant before which work counts as stopped. */
export interface Erasure {
  deps: EraseWorkspaceDeps;
  workspaceId: string;
  /** Work whose lease or row moved after this may still write (one lease ago). */
  since: string;
}

/** What a phase's step did: nothing left, a bounded piece erased, or work in flight to outwait. */
export type Step = "done" | "progress" | "waiting";

/** One bounded step of one kind of the workspace's data. */
export type Phase = (erasure: Erasure) => Promise<Step>;

/** Runs asked to stop per step: one call to each run's object. */
const RUNS_PER_STEP = 20;
/** Videos marked deleted per step: a call to the upload session, a batch and an R2 delete each. */
const VIDEOS_PER_STEP = 20;
/** Parents (profiles, rulebooks, endpoints) per step. */
const PARENTS_PER_STEP = 50;
/** R2's list returns at most 1,000 keys, and delete takes at most 1,000 (Workers API reference). */
const KEYS_PER_PAGE = 1_000;

/** Deletes one page of keys under a prefix; answers whether none are left. */
async function emptyPage(deps: EraseWorkspaceDeps, prefix: string): Promise<boolean> {
  const page = await deps.bucket.list({ prefix, limit: KEYS_PER_PAGE });
  if (page.objects.length > 0) await deps.bucket.delete(page.objects.map((o) => o.key));
  return !page.truncated;
}

/** Asks every run in flight to stop: a queued run ends at once, a processing one at its next step. */
const stopRuns: Phase = async ({ deps, workspaceId }) => {
  const ids = await runsToCancel(deps.db, workspaceId, RUNS_PER_STEP);
  if (ids.length === 0) return "done";
  let moved = 0;
  for (const id of ids) if (await deps.objects.runs.getByName(id).cancel()) moved++;
  // A run its object does not know cannot be moved; waiting leaves it to the next sweep
  // instead of asking again and again.
  return moved > 0 ? "progress" : "waiting";
};

/** Marks every video deleted, as DELETE /videos/{id} does: reads and processing stop at once. */
const tombstoneVideos: Phase = async ({ deps, workspaceId }) => {
  const page = await liveVideosPage(deps.db, workspaceId, VIDEOS_PER_STEP);
  for (const video of page) await tombstoneVideo(deps, workspaceId, video, null);
  return page.length > 0 ? "progress" : "done";
};

/**
 * Erases one deleted video through the video erasure itself (vectors, segments, objects, rows),
 * once no work renews its lease; its `video.deleted` is not written for a deleting workspace.
 */
const eraseVideos: Phase = async ({ deps, workspaceId, since }) => {
  const { ready, waiting } = await unerasedVideos(deps.db, workspaceId, since, 1);
  const [videoId] = ready;
  if (videoId === undefined) return waiting ? "waiting" : "done";
  const done = await eraseVideo(deps, {
    type: "erase-video",
    video_id: videoId,
    workspace_id: workspaceId,
  });
  return done === "deferred" ? "waiting" : "progress";
};

/**
 * Waits for runs in flight to end (a run whose work stopped a lease ago is ended by its object,
 * as the sweep does), then erases ended runs a page at a time: report objects, then the rows
 * hanging off each run, then the run. A run keeps its row until its objects are gone.
 */
const eraseRuns: Phase = async ({ deps, workspaceId, since }) => {
  const active = await activeRunsPage(deps.db, workspaceId, RUNS_PER_STEP);
  if (active.length > 0) {
    const stale = active.filter(
      (run) => run.updatedAt < since && (run.activeFrom === null || run.activeFrom < since),
    );
    let ended = 0;
    for (const run of stale) if (await deps.objects.runs.getByName(run.id).abandon()) ended++;
    return ended > 0 ? "progress" : "waiting";
  }
  const ids = await endedRunsPage(deps.db, workspaceId, RUNS_PER_STEP);
  if (ids.length === 0) return "done";
  const empty: string[] = [];
  for (const id of ids) if (await emptyPage(deps, runReportsPrefix(id))) empty.push(id);
  await runBatch(deps.db, eraseRunsStatements(deps.db, ids, empty));
  return "progress";
};

function family(kind: Family): Phase {
  return async ({ deps, workspaceId }) => {
    const ids = await kind.page(deps.db, workspaceId, PARENTS_PER_STEP);
    if (ids.length === 0) return "done";
    await runBatch(deps.db, kind.statements(deps.db, ids));
    return "progress";
  };
}

function flat(table: FlatTable): Phase {
  return async ({ deps, workspaceId }) =>
    (await eraseFlatPage(deps.db, table, workspaceId)) > 0 ? "progress" : "done";
}

/** The CSV files of import sessions, before the sessions' rows. */
const csvFiles: Phase = async ({ deps, workspaceId }) => {
  const page = await deps.bucket.list({ prefix: csvImportsPrefix(workspaceId), limit: 1 });
  if (page.objects.length === 0) return "done";
  await emptyPage(deps, csvImportsPrefix(workspaceId));
  return "progress";
};

/**
 * The order erasure goes in. Work that writes is stopped first (runs asked to cancel, videos
 * marked deleted), then content goes, and the keys and events last: a run canceled along the
 * way writes its `run.canceled`, which must still find its events table emptied after it. The
 * usage rollup goes at the very end: every step before may still count (a video marked
 * deleted counts its bytes as removed). The audit trail is not among them: it goes with the
 * row (`eraseWorkspace`).
 */
export const PHASES: readonly Phase[] = [
  stopRuns,
  tombstoneVideos,
  eraseVideos,
  eraseRuns,
  flat("videos"),
  flat("workflows"),
  family(RULEBOOKS),
  csvFiles,
  flat("csvImports"),
  family(PROFILES),
  family(REPORT_TEMPLATES),
  family(WEBHOOK_ENDPOINTS),
  flat("events"),
  flat("apiKeys"),
  flat("usage"),
];
