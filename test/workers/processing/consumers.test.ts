import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { sourceKey } from "../../../src/lib/object-keys";
import { createPorts, type Ports } from "../../../src/ports";
import { retryDelaySeconds } from "../../../src/queues/consume";
import { consumeProcessing, consumeVideoDeadLetters } from "../../../src/queues/processing";
import { createDeps } from "../../../src/services/deps";
import { processVideo } from "../../../src/services/processing/process-video";
import { bigMp4Source } from "../../helpers/big-mp4";
import { insertVideos } from "../../helpers/factories";
import { expectJson, newTenant } from "../../helpers/harness";
import { fixtureBytes } from "../../helpers/media-fixtures";
import { outbox, storedSegments, waitForFinal } from "../../helpers/processing";
import { startUpload, uploadTo } from "../../helpers/uploads";

const MiB = 1024 * 1024;

async function queuedVideoWithBytes(workspaceId: string, bytes: Uint8Array, filename = "talk.mp4") {
  const [id = ""] = await insertVideos(workspaceId, 1, {
    status: "queued",
    progress: 0,
    filename,
    fileSize: bytes.byteLength,
  });
  await env.MEDIA_BUCKET.put(sourceKey(id), bytes);
  return id;
}

describe("the processing consumers", () => {
  it("processes a 210 MiB multipart upload (moov after a 200 MiB box) by ranged reads", {
    timeout: 120_000,
  }, async () => {
    const { api } = await newTenant(["UPLOAD_VIDEOS", "READ_VIDEOS"]);
    const size = 210 * MiB + 12_345;
    const source = bigMp4Source(size, { moov: "last" });
    const session = await startUpload(api, "long-night-shift.mov", size);
    const parts = [];
    for (const target of session.targets) {
      const start = (target.part_number - 1) * session.chunk_size;
      const bytes = await source.read(start, Math.min(start + session.chunk_size, size));
      parts.push({ part_number: target.part_number, etag: await uploadTo(target, bytes) });
    }
    await api.request("PUT", `/videos/${session.video_id}/upload/parts`, { body: { parts } });
    expect((await api.post(`/videos/${session.video_id}/upload/complete`, {})).status).toBe(200);
    const video = await waitForFinal(api, session.video_id);
    expect(video).toMatchObject({ status: "completed", duration: 12, frame_count: 300 });
    expect((await storedSegments(video.id)).map((s) => s.transcript).join(" ")).toContain(
      "Lock the cage before leaving.",
    );
  });

  it("is idempotent: a redelivered message neither duplicates segments nor events", async () => {
    const { api, workspaceId } = await newTenant(["READ_VIDEOS"]);
    const id = await queuedVideoWithBytes(workspaceId, fixtureBytes("talk.mp4"));
    const ports = createPorts(env);
    const message = { type: "process-video" as const, video_id: id, workspace_id: workspaceId };
    await processVideo(createDeps(env, ports), message);
    const first = await storedSegments(id);
    await processVideo(createDeps(env, ports), message);
    expect(await storedSegments(id)).toEqual(first);
    await waitForFinal(api, id);
    await processVideo(createDeps(env, ports), message);
    expect(await storedSegments(id)).toEqual(first);
    await vi.waitUntil(async () => (await outbox(workspaceId)).length > 0);
    expect((await outbox(workspaceId)).map((e) => e.type)).toEqual(["video.indexed"]);
  });

  it("ignores a message whose workspace does not own the video", async () => {
    const mine = await newTenant(["READ_VIDEOS"]);
    const theirs = await newTenant(["READ_VIDEOS"]);
    const id = await queuedVideoWithBytes(mine.workspaceId, fixtureBytes("talk.mp4"));
    await processVideo(createDeps(env, createPorts(env)), {
      type: "process-video",
      video_id: id,
      workspace_id: theirs.workspaceId,
    });
    expect(await expectJson(await mine.api.get(`/videos/${id}`), 200)).toMatchObject({
      status: "queued",
      progress: 0,
    });
  });

  it("retries unexpected failures with growing delays", async () => {
    const { workspaceId } = await newTenant();
    const id = await queuedVideoWithBytes(workspaceId, fixtureBytes("talk.mp4"));
    const ports = createPorts(env);
    const broken: Ports = {
      ...ports,
      understanding: {
        engine: ports.understanding.engine,
        plan: () => {
          throw new Error("engine down");
        },
        understandWindow: (input, window) => ports.understanding.understandWindow(input, window),
        abandoned: (window) => ports.understanding.abandoned(window),
        assemble: (input, windows) => ports.understanding.assemble(input, windows),
      },
    };
    const batch = createMessageBatch("video-processing", [
      {
        id: "m1",
        timestamp: new Date(),
        attempts: 3,
        body: { type: "process-video", video_id: id, workspace_id: workspaceId },
      },
      { id: "m2", timestamp: new Date(), attempts: 1, body: { nonsense: true } },
    ]);
    const ctx = createExecutionContext();
    const [failing] = batch.messages;
    if (!failing) throw new Error("no message");
    const retry = vi.spyOn(failing, "retry");
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    await consumeProcessing(batch, createDeps(env, broken));
    logged.mockRestore();
    const result = await getQueueResult(batch, ctx);
    expect(result.retryMessages).toEqual([expect.objectContaining({ msgId: "m1" })]);
    expect(retry).toHaveBeenCalledWith({ delaySeconds: retryDelaySeconds(3) });
    expect(result.explicitAcks).toEqual(["m2"]);
    expect([1, 2, 3, 4, 10].map(retryDelaySeconds)).toEqual([5, 10, 20, 40, 300]);
  });

  it("marks a video failed when its message lands in the dead-letter queue", async () => {
    const { api, workspaceId } = await newTenant(["READ_VIDEOS"]);
    const id = await queuedVideoWithBytes(workspaceId, fixtureBytes("talk.mp4"));
    const [done = ""] = await insertVideos(workspaceId, 1, { status: "completed" });
    const batch = createMessageBatch("video-processing-dlq", [
      {
        id: "d1",
        timestamp: new Date(),
        attempts: 6,
        body: { type: "process-video", video_id: id, workspace_id: workspaceId },
      },
      {
        id: "d2",
        timestamp: new Date(),
        attempts: 6,
        body: { type: "index-video", video_id: done, workspace_id: workspaceId },
      },
    ]);
    const ctx = createExecutionContext();
    await consumeVideoDeadLetters(batch, createDeps(env, createPorts(env)));
    expect((await getQueueResult(batch, ctx)).explicitAcks.sort()).toEqual(["d1", "d2"]);
    expect(await expectJson(await api.get(`/videos/${id}`), 200)).toMatchObject({
      status: "failed",
      error: {
        code: "processing-failed",
        title: "Processing failed",
        detail: "The video could not be processed after several attempts.",
      },
    });
    expect(await expectJson(await api.get(`/videos/${done}`), 200)).toMatchObject({
      status: "completed",
    });
    expect((await outbox(workspaceId)).map((e) => e.type)).toEqual(["video.failed"]);
  });
});
