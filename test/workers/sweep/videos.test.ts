import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { database } from "../../../src/db/client";
import { findLease } from "../../../src/db/repos/work-leases";
import { createPorts } from "../../../src/ports";
import type { VideoDto } from "../../../src/routes/videos/schemas";
import { createDeps } from "../../../src/services/deps";
import { processVideo } from "../../../src/services/processing/process-video";
import { indexVideo } from "../../../src/services/search/index-video";
import { MAX_SWEEP_TRIES } from "../../../src/services/sweep/lease";
import { expectJson, newTenant } from "../../helpers/harness";
import { fixtureBytes } from "../../helpers/media-fixtures";
import { outbox, uploadFixture, waitForFinal } from "../../helpers/processing";
import { backdate, backdateLease, LEASE_MS, recordingEnv, sweepAfter } from "../../helpers/sweep";
import { startUpload, uploadTo } from "../../helpers/uploads";

/**
 * A completed upload whose processing message was lost: the upload session is completed
 * but the row is back at `queued`/0, last touched two leases ago.
 */
async function lostAfterCompletion() {
  const tenant = await newTenant(["UPLOAD_VIDEOS", "READ_VIDEOS"]);
  const video = await waitForFinal(tenant.api, (await uploadFixture(tenant.api, "talk.mp4")).id);
  await env.DB.prepare(
    "UPDATE videos SET status = 'queued', progress = 0, media = NULL WHERE id = ?",
  )
    .bind(video.id)
    .run();
  await env.DB.prepare("DELETE FROM events WHERE workspace_id = ?").bind(tenant.workspaceId).run();
  await backdate("videos", video.id, 2 * LEASE_MS);
  // Its processing renewed the lease as it worked; the lost work has not since.
  await backdateLease(video.id, 2 * LEASE_MS);
  // The completion's request, whose work every re-send still is.
  const row = await env.DB.prepare("SELECT work_request_id FROM videos WHERE id = ?")
    .bind(video.id)
    .first<{ work_request_id: string | null }>();
  expect(row?.work_request_id).toMatch(/^[0-9a-f-]{36}$/);
  return { ...tenant, videoId: video.id, requestId: row?.work_request_id ?? "" };
}

describe("the crash sweep on videos", () => {
  it("re-sends processing of a completed upload left queued, once per lease; the re-sent message completes it once", async () => {
    const { api, workspaceId, videoId, requestId } = await lostAfterCompletion();
    const { env: recording, queues } = recordingEnv();
    const start = Date.now();

    expect((await sweepAfter(recording, 0, start)).videos.resent).toEqual([videoId]);
    const message = {
      type: "process-video",
      video_id: videoId,
      workspace_id: workspaceId,
      request_id: requestId,
    };
    expect(queues.PROCESSING_QUEUE.sent).toEqual([message]);
    // Within the lease of that re-send nothing more is sent.
    expect((await sweepAfter(recording, 0, start)).videos.resent).toEqual([]);
    expect(queues.PROCESSING_QUEUE.sent).toHaveLength(1);

    // Delivered twice (at least once delivery): processed and announced once.
    const ports = createPorts(env);
    const next = { type: "index-video" as const, video_id: videoId, workspace_id: workspaceId };
    for (let i = 0; i < 2; i++) {
      await processVideo(createDeps(recording, ports), { ...message, type: "process-video" });
      await indexVideo(createDeps(recording, ports), next);
    }
    const video = await expectJson<VideoDto>(await api.get(`/videos/${videoId}`), 200);
    expect(video).toMatchObject({ status: "completed", progress: 100 });
    expect((await outbox(workspaceId)).map((event) => event.type)).toEqual(["video.indexed"]);
    // Ended: the sweep forgets it.
    await sweepAfter(recording, 2, start);
    expect(await findLease(database(env.DB), videoId)).toBeNull();
  });

  it(`fails a video that makes no progress after ${MAX_SWEEP_TRIES} re-sends, with a clear error`, async () => {
    const { api, workspaceId, videoId } = await lostAfterCompletion();
    const { env: recording, queues } = recordingEnv();
    const start = Date.now();
    for (let attempt = 0; attempt < MAX_SWEEP_TRIES; attempt++) {
      const report = await sweepAfter(recording, 1.1 * attempt, start);
      expect(report.videos.resent).toEqual([videoId]);
      // Each re-send is picked up (its consumer renews the lease as it starts), then stops.
      await env.DB.prepare("UPDATE work_leases SET active_from = ? WHERE subject_id = ?")
        .bind(new Date(start + 1.1 * attempt * LEASE_MS + 1001).toISOString(), videoId)
        .run();
    }
    expect(queues.PROCESSING_QUEUE.sent).toHaveLength(MAX_SWEEP_TRIES);
    expect((await sweepAfter(recording, 1.1 * MAX_SWEEP_TRIES, start)).videos.failed).toEqual([
      videoId,
    ]);
    const video = await expectJson<VideoDto>(await api.get(`/videos/${videoId}`), 200);
    expect(video.status).toBe("failed");
    expect(video.error).toMatchObject({
      code: "processing-stalled",
      next_action: expect.stringContaining("Upload the video again"),
    });
    expect((await outbox(workspaceId)).map((event) => event.type)).toEqual(["video.failed"]);
  });

  it("re-sends indexing, not processing, for a video whose index is stored", async () => {
    const { workspaceId, videoId, requestId } = await lostAfterCompletion();
    await env.DB.prepare("UPDATE videos SET status = 'processing', progress = 80 WHERE id = ?")
      .bind(videoId)
      .run();
    await backdate("videos", videoId, 2 * LEASE_MS);
    const { env: recording, queues } = recordingEnv();
    expect((await sweepAfter(recording, 0)).videos.resent).toEqual([videoId]);
    expect(queues.PROCESSING_QUEUE.sent).toEqual([]);
    expect(queues.INDEXING_QUEUE.sent).toEqual([
      { type: "index-video", video_id: videoId, workspace_id: workspaceId, request_id: requestId },
    ]);
  });

  it("leaves a video that is still uploading or that made progress within the lease", async () => {
    const { api } = await newTenant(["UPLOAD_VIDEOS", "READ_VIDEOS"]);
    const bytes = fixtureBytes("talk.mp4");
    const open = await startUpload(api, "open.mp4", bytes.byteLength);
    await uploadTo(open.targets[0] ?? { url: "", headers: {} }, bytes);
    await backdate("videos", open.video_id, 2 * LEASE_MS);
    const fresh = await startUpload(api, "fresh.mp4", 10);
    await env.DB.prepare("UPDATE videos SET status = 'processing', progress = 30 WHERE id = ?")
      .bind(fresh.video_id)
      .run();
    const { env: recording, queues } = recordingEnv();
    const report = await sweepAfter(recording, 0);
    expect(report.videos.resent).not.toContain(open.video_id);
    expect(report.videos.resent).not.toContain(fresh.video_id);
    expect(queues.PROCESSING_QUEUE.sent).toEqual([]);
    const video = await expectJson<VideoDto>(await api.get(`/videos/${open.video_id}`), 200);
    expect(video).toMatchObject({ status: "queued", progress: 0 });
  });
});
