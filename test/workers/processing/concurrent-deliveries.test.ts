import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { database } from "../../../src/db/client";
import { findVideoById } from "../../../src/db/repos/videos";
import { asyncError } from "../../../src/errors/async-codes";
import type { IndexVideoMessage, ProcessVideoMessage } from "../../../src/lib/queue-messages";
import { createPorts, type Ports } from "../../../src/ports";
import { consumeIndexing, consumeProcessing } from "../../../src/queues/processing";
import type { VideoDto } from "../../../src/routes/videos/schemas";
import { createDeps } from "../../../src/services/deps";
import { failVideo } from "../../../src/services/processing/process-video";
import { type Client, expectJson } from "../../helpers/harness";
import { outbox, queuedVideo, storedSegments } from "../../helpers/processing";
import { recordingEnv } from "../../helpers/sweep";

/** Delivers one message to a consumer through a batch of its own; returns what it acked. */
async function deliver(
  consume: typeof consumeProcessing,
  queue: string,
  body: ProcessVideoMessage | IndexVideoMessage,
  ports: Ports,
  target = recordingEnv(),
): Promise<string[]> {
  const batch = createMessageBatch(queue, [
    { id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body },
  ]);
  const ctx = createExecutionContext();
  await consume(batch, createDeps(target.env, ports));
  return (await getQueueResult(batch, ctx)).explicitAcks;
}

/** The video as GET shows it, less its signed thumbnail URL (signed anew each second). */
async function readVideo(api: Client, videoId: string) {
  const { thumbnail_url: _signed, ...video } = await expectJson<VideoDto>(
    await api.get(`/videos/${videoId}`),
    200,
  );
  return video;
}

/** A promise with its resolve function, for holding work at a chosen point. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe("duplicate deliveries of one video's messages", () => {
  it("two copies of each message delivered at the same moment complete the video once", async () => {
    const { api, workspaceId, videoId } = await queuedVideo();
    const ports = createPorts(env);
    const recording = recordingEnv();
    const processMessage = {
      type: "process-video" as const,
      video_id: videoId,
      workspace_id: workspaceId,
    };
    const processed = await Promise.all([
      deliver(consumeProcessing, "video-processing", processMessage, ports, recording),
      deliver(consumeProcessing, "video-processing", processMessage, ports, recording),
    ]);
    expect(processed.flat()).toHaveLength(2);
    const indexMessages = recording.queues.INDEXING_QUEUE.sent as IndexVideoMessage[];
    expect(indexMessages.length).toBeGreaterThanOrEqual(1);
    const [indexMessage] = indexMessages;
    if (!indexMessage) throw new Error("no index message was sent");

    const indexed = await Promise.all([
      deliver(consumeIndexing, "search-indexing", indexMessage, ports),
      deliver(consumeIndexing, "search-indexing", indexMessage, ports),
    ]);
    expect(indexed.flat()).toHaveLength(2);

    const events = await outbox(workspaceId);
    expect(events.map((event) => event.type)).toEqual(["video.indexed"]);
    expect(events[0]?.data.video).toMatchObject({ id: videoId, status: "completed" });
    const video = await readVideo(api, videoId);
    expect(video).toMatchObject({ status: "completed", progress: 100 });
    const segments = await storedSegments(videoId);
    expect(segments.length).toBeGreaterThan(0);
    expect(segments.map((segment) => segment.position)).toEqual(segments.map((_, index) => index));
  });

  it("a copy still processing when the other completes the video leaves the completed video as it is", async () => {
    const { api, workspaceId, videoId } = await queuedVideo();
    const ports = createPorts(env);
    const held = gate();
    const reached = gate();
    // The late copy stops inside the understanding step until the first has finished.
    const slowPorts: Ports = {
      ...ports,
      understanding: {
        engine: ports.understanding.engine,
        plan: (input) => ports.understanding.plan(input),
        understandWindow: (input, window) => ports.understanding.understandWindow(input, window),
        abandoned: (window) => ports.understanding.abandoned(window),
        assemble: async (input, windows) => {
          reached.open();
          await held.opened;
          return ports.understanding.assemble(input, windows);
        },
      },
    };
    const message = {
      type: "process-video" as const,
      video_id: videoId,
      workspace_id: workspaceId,
    };
    const late = recordingEnv();
    const lateDelivery = deliver(consumeProcessing, "video-processing", message, slowPorts, late);
    await reached.opened;

    const first = recordingEnv();
    await deliver(consumeProcessing, "video-processing", message, ports, first);
    const [indexMessage] = first.queues.INDEXING_QUEUE.sent as IndexVideoMessage[];
    if (!indexMessage) throw new Error("no index message was sent");
    await deliver(consumeIndexing, "search-indexing", indexMessage, ports);
    const completed = await readVideo(api, videoId);
    expect(completed).toMatchObject({ status: "completed", progress: 100 });
    const segments = await storedSegments(videoId);

    held.open();
    expect(await lateDelivery).toHaveLength(1);
    for (const body of late.queues.INDEXING_QUEUE.sent as IndexVideoMessage[]) {
      await deliver(consumeIndexing, "search-indexing", body, ports);
    }
    expect(await readVideo(api, videoId)).toEqual(completed);
    expect(await storedSegments(videoId)).toEqual(segments);
    expect((await outbox(workspaceId)).map((event) => event.type)).toEqual(["video.indexed"]);
  });

  it("failing a video another delivery has completed meanwhile changes nothing", async () => {
    const { api, workspaceId, videoId } = await queuedVideo();
    const db = database(env.DB);
    const before = await findVideoById(db, videoId);
    if (!before) throw new Error("the video is missing");
    const ports = createPorts(env);
    const message = {
      type: "process-video" as const,
      video_id: videoId,
      workspace_id: workspaceId,
    };
    const recording = recordingEnv();
    await deliver(consumeProcessing, "video-processing", message, ports, recording);
    for (const body of recording.queues.INDEXING_QUEUE.sent as IndexVideoMessage[]) {
      await deliver(consumeIndexing, "search-indexing", body, ports);
    }
    const completed = await readVideo(api, videoId);

    // The sweep or a dead letter decided on the row as it was before completion.
    await failVideo({ db }, before, asyncError("processing-stalled"));
    expect(await readVideo(api, videoId)).toEqual(completed);
    expect((await outbox(workspaceId)).map((event) => event.type)).toEqual(["video.indexed"]);
  });
});
