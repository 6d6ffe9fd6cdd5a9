import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createPorts } from "../../../src/ports";
import { tombstoneVideo } from "../../../src/services/deletion/delete-video";
import { createDeps } from "../../../src/services/deps";
import type { UsageReportDto } from "../../../src/services/presenters/usage";
import { startProcessing } from "../../../src/services/uploads/complete";
import type { SessionState } from "../../../src/services/uploads/types";
import { attemptDelivery } from "../../../src/services/webhooks/deliver";
import { dispatchPendingEvents } from "../../../src/services/webhooks/enqueue-attempts";
import { insertVideos } from "../../helpers/factories";
import { type Client, expectJson, newTenant } from "../../helpers/harness";
import { RecordingQueue } from "../../helpers/sweep";
import { emitEvent, registerEndpoint, scriptedTransport, webhookWorld } from "../webhooks/helpers";

const SIZE = 5_000;

async function totals(api: Client) {
  return (await expectJson<UsageReportDto>(await api.get("/usage"), 200)).totals;
}

/** A completed upload session of a queued video, as its object holds it before the send. */
function completedSession(videoId: string, workspaceId: string): SessionState {
  const now = Date.now();
  return {
    session: {
      videoId,
      workspaceId,
      objectKey: `videos/${videoId}/source`,
      filename: "clip.mp4",
      contentType: "video/mp4",
      fileSize: SIZE,
      strategy: "direct",
      chunkSize: SIZE,
      totalChunks: 1,
      uploadId: null,
      state: "completed",
      createdAt: now,
      expiresAt: now + 3_600_000,
      verifiedBytes: SIZE,
      processingQueued: false,
    },
    parts: {},
  };
}

/** What the upload session's object reaches, with a queue that fails its first send. */
function uploadDeps(queue: Queue<unknown>) {
  const deps = createDeps(env, createPorts(env));
  return { ...deps, queues: { ...deps.queues, processing: queue } };
}

describe("counting once", () => {
  it("an upload whose processing is asked for again after a lost send, then its deletion", async () => {
    const { api, workspaceId } = await newTenant(["*"]);
    const [videoId = ""] = await insertVideos(workspaceId, 1, {
      status: "queued",
      progress: 0,
      fileSize: SIZE,
    });
    const state = completedSession(videoId, workspaceId);
    const lost: Queue<unknown> = Object.assign(new RecordingQueue(), {
      send: async () => {
        throw new Error("the queue is unavailable");
      },
    });
    await expect(startProcessing(uploadDeps(lost), state, "req-1")).rejects.toThrow();
    // The object persisted nothing, so the next completion asks again, and so may another.
    const queue = new RecordingQueue();
    await startProcessing(uploadDeps(queue), state, "req-2");
    await startProcessing(uploadDeps(queue), state, "req-3");
    expect(queue.sent).toHaveLength(2);
    expect(await totals(api)).toMatchObject({
      videos_uploaded: 1,
      bytes_stored: SIZE,
      bytes_stored_peak: SIZE,
    });

    // A video whose upload never completed stored nothing, so deleting it removes nothing.
    const [never = ""] = await insertVideos(workspaceId, 1, { status: "failed", fileSize: 777 });
    const deps = createDeps(env, createPorts(env));
    for (const id of [videoId, videoId, never])
      await tombstoneVideo(deps, workspaceId, { id }, null);
    expect(await totals(api)).toMatchObject({
      videos_uploaded: 1,
      bytes_stored: 0,
      bytes_stored_peak: SIZE,
    });
  });

  it("a search replayed by its Idempotency-Key, and a webhook message delivered twice", async () => {
    const { api, workspaceId } = await newTenant(["*"]);
    const headers = { "Idempotency-Key": "search-once" };
    for (let i = 0; i < 2; i++)
      await expectJson(await api.post("/search", { query: "forklift" }, headers), 200);
    await expectJson(await api.post("/search", { query: "forklift" }), 200);

    await registerEndpoint(api);
    const world = webhookWorld();
    await emitEvent(workspaceId, "video.indexed");
    await dispatchPendingEvents(world.deps);
    const [message] = world.queue.take();
    if (!message) throw new Error("no delivery was queued");
    const { transport } = scriptedTransport([{ status: 204, retryAfter: null }]);
    expect(await attemptDelivery(world.deps, transport, message)).toBe("delivered");
    expect(await attemptDelivery(world.deps, transport, message)).toBe("stale");
    expect(await totals(api)).toMatchObject({
      searches: 2,
      webhook_attempts: 1,
      webhook_deliveries: 1,
    });
  });
});
