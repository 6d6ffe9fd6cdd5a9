import { runBatch } from "../../db/client";
import {
  insertWindowsStatements,
  type MediaWindowRow,
  pendingWindows,
  WINDOWS_PER_PAGE,
  windowProgress,
} from "../../db/repos/media-windows";
import { updateVideoStatement, type VideoRow } from "../../db/repos/videos";
import type { MediaProbe } from "../../domain/media";
import { PROCESSING_PROGRESS } from "../../domain/video";
import { chunks } from "../../lib/chunks";
import { nowIso } from "../../lib/clock";
import { causedBy, type UnderstandWindowMessage } from "../../lib/queue-messages";
import type { PlannedWindow } from "../../ports/media-understanding/port";
import type { Deps } from "../deps";
import { PROCESSING } from "./video-states";

/** Queues take at most 100 messages in one `sendBatch`. */
const MAX_MESSAGES_PER_SEND = 100;

/**
 * Records a video's planned windows and its probed facts, a page of windows per D1 batch (one
 * or two statements of JSON rows, whatever the video's length), the facts and `probed` with
 * the last page: a video past `probed` has its whole plan. Pages go in plan order and each is
 * all or nothing, so a delivery after a crash part way goes on after the windows recorded,
 * and one that meets windows already there adds nothing.
 */
export async function recordPlan(
  deps: Pick<Deps, "db">,
  video: Pick<VideoRow, "id">,
  probe: MediaProbe,
  planned: readonly PlannedWindow[],
): Promise<void> {
  const { db } = deps;
  const createdAt = nowIso();
  const { total: recorded } = await windowProgress(db, video.id);
  const rows: MediaWindowRow[] = planned.slice(recorded).map((window, i) => ({
    videoId: video.id,
    position: recorded + i,
    kind: window.kind,
    plan: window.plan,
    state: "pending",
    result: null,
    claimedUntil: null,
    claimedBy: null,
    parts: null,
    updatedAt: createdAt,
  }));
  const facts = updateVideoStatement(
    db,
    video.id,
    {
      progress: PROCESSING_PROGRESS.probed,
      duration: probe.duration,
      frameCount: probe.video?.frameCount ?? 0,
      updatedAt: createdAt,
    },
    PROCESSING,
  );
  const pages = chunks(rows, WINDOWS_PER_PAGE);
  if (pages.length === 0) return runBatch(db, [facts]);
  for (const [i, page] of pages.entries()) {
    const last = i === pages.length - 1;
    await runBatch(db, [...insertWindowsStatements(db, page), ...(last ? [facts] : [])]);
  }
}

/**
 * Carries a planned video on (its windows recorded, processing past `probed`): sends its
 * pending windows again, or its assembly when none is pending. False when it has no plan.
 */
export async function resumePlannedVideo(
  deps: Pick<Deps, "db" | "queues">,
  video: VideoRow,
): Promise<boolean> {
  if (video.status !== "processing" || video.progress < PROCESSING_PROGRESS.probed) return false;
  const { total, done } = await windowProgress(deps.db, video.id);
  if (total === 0) return false;
  if (done < total) {
    await sendPendingWindows(deps, video);
  } else {
    await deps.queues.processing.send({
      type: "assemble-video",
      video_id: video.id,
      workspace_id: video.workspaceId,
      ...causedBy(video.workRequestId),
    });
  }
  return true;
}

/** Sends every pending window of a video to its queue, reading them a page at a time. */
export async function sendPendingWindows(
  deps: Pick<Deps, "db" | "queues">,
  video: Pick<VideoRow, "id" | "workspaceId" | "workRequestId">,
): Promise<void> {
  for (let after = -1; ; ) {
    const page = await pendingWindows(deps.db, video.id, after);
    await sendWindows(deps, video, page);
    const last = page.at(-1);
    if (!last || page.length < WINDOWS_PER_PAGE) return;
    after = last.position;
  }
}

/**
 * Hands windows to their queues, at most 100 messages a send (the platform's limit): frames
 * windows to the frames queue, audio windows to the windows queue, so each kind is worked in
 * batches of its own and neither waits on the other's slower batches.
 */
export async function sendWindows(
  deps: Pick<Deps, "queues">,
  video: Pick<VideoRow, "id" | "workspaceId" | "workRequestId">,
  windows: readonly Pick<MediaWindowRow, "position" | "kind">[],
): Promise<void> {
  const byQueue = [
    { queue: deps.queues.windows, kind: "audio" },
    { queue: deps.queues.frames, kind: "frames" },
  ] as const;
  for (const { queue, kind } of byQueue) {
    const positions = windows.filter((w) => w.kind === kind).map((w) => w.position);
    for (const slice of chunks(positions, MAX_MESSAGES_PER_SEND)) {
      await queue.sendBatch(
        slice.map((position) => ({
          body: {
            type: "understand-window",
            video_id: video.id,
            workspace_id: video.workspaceId,
            ...causedBy(video.workRequestId),
            position,
          } satisfies UnderstandWindowMessage,
        })),
      );
    }
  }
}
