import { runBatch } from "../../db/client";
import { bytesPeakStatement, countStatements } from "../../db/repos/usage";
import { awaitingUpload, markUploadedStatement } from "../../db/repos/videos";
import { dayOf } from "../../domain/usage";
import { nowIso } from "../../lib/clock";
import type { ProcessVideoMessage } from "../../lib/queue-messages";
import { cleanupTime } from "./end";
import { answer, blocked, notFound, owned } from "./results";
import type { SessionState, SessionStep, UploadDeps } from "./types";
import { verifyDirect, verifyMultipart } from "./verify";

/**
 * POST /upload/complete, first half: verifies the stored bytes against storage (never
 * the receipts alone) and marks the session completed. A completed session answers
 * itself again. The owner persists the step before `startProcessing`, so a failed queue
 * send is retried by completing again rather than by verifying twice.
 */
export async function completeUpload(
  deps: UploadDeps,
  stored: SessionState | null,
  workspaceId: string,
): Promise<SessionStep> {
  const state = owned(stored, workspaceId);
  if (!state) return notFound();
  if (state.session.state === "completed") return { result: answer(deps, state, null), next: null };
  const refusal = blocked(deps, state.session);
  if (refusal) return refusal;
  const verified =
    state.session.strategy === "direct"
      ? await verifyDirect(deps, state)
      : await verifyMultipart(deps, state);
  if (!verified.ok) return { result: verified, next: null };
  // Completion confirmed every part, so the receipts keep the sizes storage verified.
  const next: SessionState = {
    session: {
      ...state.session,
      state: "completed",
      verifiedBytes: state.session.fileSize,
      cleanupAt: cleanupTime(deps, state.session),
    },
    parts: verified.parts,
  };
  return { result: answer(deps, next, null), next };
}

/**
 * POST /upload/complete, second half: sends the processing message once per session. The video
 * row names `requestId` as the request whose work processing is first, so the sweep's re-sends
 * and the video's events name it too. The upload counts in the workspace's usage (a video
 * uploaded, its bytes stored) in the batch that first marks it uploaded, so completing again
 * after a failed send counts nothing twice.
 */
export async function startProcessing(
  deps: UploadDeps,
  state: SessionState,
  requestId: string,
): Promise<SessionStep> {
  if (state.session.processingQueued) return { result: answer(deps, state, null), next: null };
  const { videoId, workspaceId, fileSize } = state.session;
  const { db } = deps;
  const at = nowIso(deps.clock.now());
  const day = dayOf(at);
  const counts = [
    { metric: "videos_uploaded" as const, key: "", value: 1 },
    { metric: "bytes_added" as const, key: "", value: fileSize },
  ];
  await runBatch(db, [
    ...countStatements(db, { workspaceId }, day, counts, awaitingUpload(videoId)),
    markUploadedStatement(db, videoId, requestId, at),
    bytesPeakStatement(db, workspaceId, day),
  ]);
  const message: ProcessVideoMessage = {
    type: "process-video",
    video_id: videoId,
    workspace_id: workspaceId,
    request_id: requestId,
  };
  await deps.queues.processing.send(message);
  const next: SessionState = { ...state, session: { ...state.session, processingQueued: true } };
  return { result: answer(deps, next, null), next };
}
