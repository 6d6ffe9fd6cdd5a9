import { runBatch } from "../../db/client";
import {
  claimWindow,
  completeWindowStatement,
  extendClaimStatement,
  findWindow,
  keepWindowPart,
  type MediaWindowRow,
  releaseClaim,
  WINDOWS_PER_PAGE,
  windowIsPending,
  windowOutcomes,
  windowProgress,
  windowProgressStatement,
} from "../../db/repos/media-windows";
import { countStatements } from "../../db/repos/usage";
import { findVideoById, type VideoRow, videoIsIn } from "../../db/repos/videos";
import { dayOf, mediaCounts, NO_MEDIA_USAGE } from "../../domain/usage";
import { PROCESSING_PROGRESS } from "../../domain/video";
import { nowIso } from "../../lib/clock";
import type { InvocationScope } from "../../lib/invocation-scope";
import { sourceKey } from "../../lib/object-keys";
import {
  type AssembleVideoMessage,
  causedBy,
  type UnderstandWindowMessage,
} from "../../lib/queue-messages";
import { r2RangeSource } from "../../media/r2-source";
import type { WindowParts } from "../../ports/media-understanding/port";
import type { Deps } from "../deps";
import { CLAIM_MS, withLeaseHeartbeat } from "../lease-heartbeat";
import { loadProbeIn } from "../media/probe-store";
import { assembleIndex } from "./assemble-index";
import { understandInput } from "./process-video";
import { PROCESSING } from "./video-states";

/** Windows move progress from `probed` to `windowsDone`; assembly then takes it to `understood`. */
const WINDOW_SPAN = PROCESSING_PROGRESS.windowsDone - PROCESSING_PROGRESS.probed;

/**
 * Understands one window of a processing video and stores its result; the window that
 * completes the plan hands the video to assembly. Safe to redeliver: a done window is not
 * understood again, and a result is stored only while the window is pending.
 */
export async function understandVideoWindow(
  deps: Deps,
  message: UnderstandWindowMessage,
  scope?: InvocationScope,
): Promise<void> {
  const found = await processingVideo(deps, message, scope);
  if (!found) return;
  const { video, input } = found;
  const window = await findWindow(deps.db, video.id, message.position);
  if (!window) return;
  if (window.state === "pending") {
    const now = deps.clock.now();
    const by = crypto.randomUUID();
    const claimed = await claimWindow(deps.db, window, by, nowIso(now), nowIso(now + CLAIM_MS));
    if (!claimed) {
      // Another delivery holds it: look again once its claim would have run out.
      throw new WindowBusyError(`window ${message.position} of ${video.id} is being worked on`);
    }
    try {
      const result = await withLeaseHeartbeat(
        deps,
        { subjectId: video.id, kind: "video" },
        () =>
          deps.ports.understanding.understandWindow(
            input,
            { kind: window.kind, plan: window.plan },
            windowParts(deps, claimed),
          ),
        (until) => extendClaimStatement(deps.db, window, by, until),
      );
      await storeWindowResult(deps, video, window, result);
    } catch (error) {
      // Given back at once: the message's retry claims the window instead of meeting this
      // claim until it runs out (and spending its retries on WindowBusyError).
      await releaseClaim(deps.db, window, by).catch((release: unknown) =>
        deps.log.error({ window_claim_kept: String(release) }),
      );
      throw error;
    }
  }
  await assembleWhenComplete(deps, video);
}

/** A delivery found its window claimed by another; the message is retried later. */
export class WindowBusyError extends Error {}

/** The window's kept parts, as this delivery found them, and where it keeps more. */
function windowParts(deps: Pick<Deps, "db">, window: MediaWindowRow): WindowParts {
  return {
    kept: window.parts ?? {},
    keep: (key, part) => keepWindowPart(deps.db, window, key, part),
  };
}

/**
 * A window that failed every retry (its dead letter): its result records the failure, so the
 * video completes with what the other windows found instead of waiting forever.
 */
export async function abandonVideoWindow(
  deps: Deps,
  message: UnderstandWindowMessage,
): Promise<void> {
  const video = await findVideoById(deps.db, message.video_id);
  if (!video || video.workspaceId !== message.workspace_id || video.status !== "processing") return;
  const window = await findWindow(deps.db, video.id, message.position);
  if (window?.state !== "pending") return;
  const result = deps.ports.understanding.abandoned({ kind: window.kind, plan: window.plan });
  await storeWindowResult(deps, video, window, result);
  await assembleWhenComplete(deps, video);
}

/** Builds the index of a video whose windows are all done (from the processing queue). */
export async function assembleVideo(deps: Deps, message: AssembleVideoMessage): Promise<void> {
  const found = await processingVideo(deps, message);
  if (!found || found.video.progress >= PROCESSING_PROGRESS.understood) return;
  const { total, done } = await windowProgress(deps.db, found.video.id);
  if (done < total) return;
  await assembleIndex(deps, found.video, found.input, storedOutcomes(deps, found.video.id));
}

/** A video's window outcomes in plan order, read a page at a time as assembly takes them. */
async function* storedOutcomes(deps: Pick<Deps, "db">, videoId: string) {
  for (let after = -1; ; ) {
    const page = await windowOutcomes(deps.db, videoId, after);
    for (const w of page) yield { kind: w.kind, plan: w.plan, result: w.result };
    const last = page.at(-1);
    if (!last || page.length < WINDOWS_PER_PAGE) return;
    after = last.position;
  }
}

async function processingVideo(
  deps: Deps,
  message: { video_id: string; workspace_id: string },
  scope?: InvocationScope,
) {
  const video = await findVideoById(deps.db, message.video_id);
  if (!video || video.workspaceId !== message.workspace_id || video.status !== "processing")
    return null;
  const probe = await loadProbeIn(scope, deps.bucket, video.id);
  // A processing video past `probed` always has its probe; without it, probing starts over.
  if (!probe) throw new Error(`the probe of ${video.id} is missing`);
  const source = r2RangeSource(deps.bucket, sourceKey(video.id), video.fileSize);
  const input = { ...understandInput(video, probe, source, deps.bucket), scope, log: deps.log };
  return { video, input };
}

/**
 * Stores a window's result, once, and counts what its work used in the same batch, on the same
 * condition (the window still pending, its video processing): a duplicate delivery counts
 * nothing.
 */
async function storeWindowResult(
  deps: Pick<Deps, "db" | "ports">,
  video: Pick<VideoRow, "id" | "workspaceId">,
  window: MediaWindowRow,
  result: unknown,
): Promise<void> {
  const { db } = deps;
  const now = nowIso();
  const planned = { kind: window.kind, plan: window.plan };
  const usage = deps.ports.understanding.usage?.(planned, result) ?? NO_MEDIA_USAGE;
  const processing = videoIsIn(window.videoId, PROCESSING);
  const target = { workspaceId: video.workspaceId, videoId: video.id };
  const counts = mediaCounts(usage);
  await runBatch(db, [
    ...countStatements(db, target, dayOf(now), counts, windowIsPending(window, processing)),
    completeWindowStatement(db, window, result, now, processing),
    windowProgressStatement(db, window.videoId, PROCESSING_PROGRESS.probed, WINDOW_SPAN, now),
  ]);
}

/** Once every window is done, asks for assembly (twice is harmless: assembly checks again). */
async function assembleWhenComplete(deps: Deps, video: VideoRow): Promise<void> {
  const { total, done } = await windowProgress(deps.db, video.id);
  if (total === 0 || done < total) return;
  await deps.queues.processing.send({
    type: "assemble-video",
    video_id: video.id,
    workspace_id: video.workspaceId,
    ...causedBy(video.workRequestId),
  });
}
