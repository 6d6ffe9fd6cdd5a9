import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { clusterIndexKey, probeKey } from "../../../src/lib/object-keys";
import type { UnderstandWindowMessage } from "../../../src/lib/queue-messages";
import { decodeClusterIndex } from "../../../src/media/cluster-index";
import type { WindowSettings } from "../../../src/media-understanding/windows";
import { createPorts, type Ports } from "../../../src/ports";
import { pacedAi } from "../../../src/ports/ai/model-calls";
import { R2FrameStore } from "../../../src/ports/media-understanding/frame-store";
import { WorkersAiMediaUnderstanding } from "../../../src/ports/media-understanding/workers-ai";
import {
  consumeProcessing,
  consumeWindowDeadLetters,
  consumeWindows,
} from "../../../src/queues/processing";
import { createDeps } from "../../../src/services/deps";
import { type Client, expectJson } from "../../helpers/harness";
import { instantCalls } from "../../helpers/instant-calls";
import { longMkvVideo } from "../../helpers/long-mkv-video";
import { queuedVideo, storedSegments } from "../../helpers/processing";
import { recordingEnv, sweepAfter } from "../../helpers/sweep";
import {
  RecordingAi,
  RecordingMedia,
  realisticAnswer,
} from "../media-understanding/recording-fakes";

const WHISPER = "@cf/openai/whisper-large-v3-turbo";

/** The local ports with the production media engine over recording fakes of AI and Media. */
function productionMedia(respond = realisticAnswer, settings?: Partial<WindowSettings>) {
  const ai = new RecordingAi(respond);
  const ports: Ports = {
    ...createPorts(env),
    understanding: new WorkersAiMediaUnderstanding({
      ai: pacedAi(ai, instantCalls()),
      media: new RecordingMedia(),
      frames: new R2FrameStore(env.MEDIA_BUCKET),
      settings,
    }),
  };
  return { ai, ports };
}

async function deliver(
  consume: typeof consumeProcessing,
  queue: string,
  bodies: unknown[],
  ports: Ports,
  target: ReturnType<typeof recordingEnv>,
) {
  const batch = createMessageBatch(
    queue,
    bodies.map((body) => ({ id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body })),
  );
  const ctx = createExecutionContext();
  await consume(batch, createDeps(target.env, ports));
  return getQueueResult(batch, ctx);
}

/** The keys the consumers of `target` read from the media bucket, one entry per `get`. */
function recordBucketGets(target: ReturnType<typeof recordingEnv>): string[] {
  const keys: string[] = [];
  target.env.MEDIA_BUCKET = new Proxy(target.env.MEDIA_BUCKET, {
    get(bucket, property) {
      const value: unknown = Reflect.get(bucket, property, bucket);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (property === "get") keys.push(String(args[0]));
        return Reflect.apply(value, bucket, args);
      };
    },
  });
  return keys;
}

/** A video's window results as stored, in plan order. */
async function windowResults(videoId: string) {
  const { results } = await env.DB.prepare(
    "SELECT position, state, result FROM media_windows WHERE video_id = ? ORDER BY position",
  )
    .bind(videoId)
    .all<{ position: number; state: string; result: string | null }>();
  return results;
}

async function progressOf(api: Client, videoId: string) {
  return await expectJson<{ progress: number; status: string }>(
    await api.get(`/videos/${videoId}`),
    200,
  );
}

describe("processing in windows", () => {
  it("plans, fans the windows out, counts them done and assembles once", async () => {
    const { api, workspaceId, videoId } = await queuedVideo();
    const { ai, ports } = productionMedia();
    const target = recordingEnv();
    const start = { type: "process-video", video_id: videoId, workspace_id: workspaceId };
    await deliver(consumeProcessing, "video-processing", [start], ports, target);

    // talk.mp4 is 24 s: one audio window and six frames in one frames window, each kind on
    // its own queue.
    const [audio, ...moreAudio] = target.queues.WINDOWS_QUEUE.sent as UnderstandWindowMessage[];
    const [frames, ...moreFrames] = target.queues.FRAMES_QUEUE.sent as UnderstandWindowMessage[];
    expect([audio?.position, frames?.position, moreAudio, moreFrames]).toEqual([0, 1, [], []]);
    expect(await progressOf(api, videoId)).toMatchObject({ status: "processing", progress: 30 });

    // Two copies at once: one claims the window, the other is retried later.
    const twice = await deliver(consumeWindows, "media-windows", [audio, audio], ports, target);
    expect(twice.retryMessages).toHaveLength(1);
    expect(ai.callsTo(WHISPER)).toHaveLength(1);
    const again = await deliver(consumeWindows, "media-windows", [audio], ports, target);
    expect(again.explicitAcks).toHaveLength(1);
    expect(ai.callsTo(WHISPER)).toHaveLength(1);
    expect((await progressOf(api, videoId)).progress).toBe(52.5);
    expect(target.queues.PROCESSING_QUEUE.sent).toEqual([]);

    await deliver(consumeWindows, "media-frames", [frames], ports, target);
    expect((await progressOf(api, videoId)).progress).toBe(75);
    const assemble = target.queues.PROCESSING_QUEUE.sent;
    expect(assemble).toEqual([
      { type: "assemble-video", video_id: videoId, workspace_id: workspaceId },
    ]);

    await deliver(consumeProcessing, "video-processing", [assemble[0], assemble[0]], ports, target);
    expect(target.queues.INDEXING_QUEUE.sent).toHaveLength(1);
    const segments = await storedSegments(videoId);
    const kinds = new Set(segments.flatMap((s) => s.evidence.map((e) => e.kind)));
    expect([...kinds]).toEqual(expect.arrayContaining(["transcript", "scene"]));
  });

  it("retries a window whose model is unavailable, and the sweep re-sends what was lost", async () => {
    const { api, workspaceId, videoId } = await queuedVideo();
    const { ports } = productionMedia(async (model, inputs) => {
      if (model === WHISPER) throw Object.assign(new Error("rate limited"), { status: 429 });
      return realisticAnswer(model, inputs);
    });
    const target = recordingEnv();
    const start = { type: "process-video", video_id: videoId, workspace_id: workspaceId };
    await deliver(consumeProcessing, "video-processing", [start], ports, target);
    const [audio] = target.queues.WINDOWS_QUEUE.sent as UnderstandWindowMessage[];
    // A short deadline stands for the call's two minutes.
    const slow = {
      ...ports,
      understanding: new WorkersAiMediaUnderstanding({
        ai: pacedAi(
          new RecordingAi(async () =>
            Promise.reject(Object.assign(new Error("busy"), { status: 503 })),
          ),
          instantCalls({ policy: { deadlineMs: 0 } }),
        ),
        media: new RecordingMedia(),
        frames: new R2FrameStore(env.MEDIA_BUCKET),
      }),
    };
    const result = await deliver(consumeWindows, "media-windows", [audio], slow, target);
    expect(result.retryMessages).toHaveLength(1);
    expect((await progressOf(api, videoId)).progress).toBe(30);

    // Lost: the sweep finds the planned video stale and sends its pending windows again.
    target.queues.WINDOWS_QUEUE.sent.length = 0;
    target.queues.FRAMES_QUEUE.sent.length = 0;
    await sweepAfter(target.env, 1);
    const resent = (queue: { sent: unknown[] }) =>
      (queue.sent as UnderstandWindowMessage[]).map((w) => w.position);
    expect([resent(target.queues.WINDOWS_QUEUE), resent(target.queues.FRAMES_QUEUE)]).toEqual([
      [0],
      [1],
    ]);
  });

  it("records a window that failed every retry as unavailable and completes the video", async () => {
    const { workspaceId, videoId } = await queuedVideo();
    const { ports } = productionMedia();
    const target = recordingEnv();
    const start = { type: "process-video", video_id: videoId, workspace_id: workspaceId };
    await deliver(consumeProcessing, "video-processing", [start], ports, target);
    const [audio] = target.queues.WINDOWS_QUEUE.sent as UnderstandWindowMessage[];
    const [frames] = target.queues.FRAMES_QUEUE.sent as UnderstandWindowMessage[];
    await deliver(consumeWindowDeadLetters, "media-windows-dlq", [audio], ports, target);
    await deliver(consumeWindows, "media-frames", [frames], ports, target);
    const [assemble] = target.queues.PROCESSING_QUEUE.sent;
    await deliver(consumeProcessing, "video-processing", [assemble], ports, target);
    const { results } = await env.DB.prepare("SELECT media FROM videos WHERE id = ?")
      .bind(videoId)
      .all<{ media: string }>();
    const media = JSON.parse(results[0]?.media ?? "{}") as { limitations: string[] };
    expect(media.limitations).toContain("speech-recognition-unavailable");
  });

  it("reads a video's probe once for a batch of its windows, and stores the same results", async () => {
    // Five-second audio windows make five windows of talk.mp4 on one queue: one full batch.
    const { ports } = productionMedia(realisticAnswer, { audioWindowSeconds: 5 });
    async function plannedVideo() {
      const { workspaceId, videoId } = await queuedVideo();
      const target = recordingEnv();
      const start = { type: "process-video", video_id: videoId, workspace_id: workspaceId };
      await deliver(consumeProcessing, "video-processing", [start], ports, target);
      const windows = target.queues.WINDOWS_QUEUE.sent as UnderstandWindowMessage[];
      const gets = recordBucketGets(target);
      const probeGets = () => gets.filter((key) => key === probeKey(videoId)).length;
      return { videoId, target, windows, probeGets };
    }

    const apart = await plannedVideo();
    expect(apart.windows).toHaveLength(5);
    for (const window of apart.windows) {
      await deliver(consumeWindows, "media-windows", [window], ports, apart.target);
    }
    expect(apart.probeGets()).toBe(5);

    const batched = await plannedVideo();
    const result = await deliver(
      consumeWindows,
      "media-windows",
      batched.windows,
      ports,
      batched.target,
    );
    expect(result.explicitAcks).toHaveLength(5);
    expect(batched.probeGets()).toBe(1);

    const stored = await windowResults(batched.videoId);
    expect(stored.filter((w) => w.state === "done")).toHaveLength(5);
    expect(stored).toEqual(await windowResults(apart.videoId));
  });

  it("cuts a WebM without Cues through the Cluster index its probe kept", async () => {
    const { ports } = productionMedia(realisticAnswer, { audioWindowSeconds: 30 });
    const file = await longMkvVideo({ hours: 0.05, cues: false, container: "webm" });
    const bytes = await file.read(0, file.size);
    const { workspaceId, videoId } = await queuedVideo({ filename: "live.webm", bytes });
    const target = recordingEnv();
    const start = { type: "process-video", video_id: videoId, workspace_id: workspaceId };
    await deliver(consumeProcessing, "video-processing", [start], ports, target);
    // Three minutes: a Cluster every 2 s.
    const stored = await env.MEDIA_BUCKET.get(clusterIndexKey(videoId));
    const index = stored && decodeClusterIndex(await stored.arrayBuffer());
    expect(index?.ticks.length).toBe(90);
    const audio = target.queues.WINDOWS_QUEUE.sent as UnderstandWindowMessage[];
    const frames = target.queues.FRAMES_QUEUE.sent as UnderstandWindowMessage[];
    expect(audio).toHaveLength(6);
    const gets = recordBucketGets(target);
    for (const [queue, batch] of [
      ["media-windows", audio],
      ["media-frames", frames],
    ] as const) {
      const result = await deliver(consumeWindows, queue, batch, ports, target);
      expect(result.explicitAcks).toHaveLength(batch.length);
    }
    // Each batch's one cutter reads the index once.
    expect(gets.filter((key) => key === clusterIndexKey(videoId))).toHaveLength(2);
    const done = await windowResults(videoId);
    expect(done.map((w) => w.state)).toEqual(Array(audio.length + frames.length).fill("done"));
    // Every window's audio and frames were cut, none given up.
    const notes = done.flatMap((w) => (JSON.parse(w.result ?? "{}") as { notes: string[] }).notes);
    expect(notes.filter((note) => note.endsWith("-extraction-failed"))).toEqual([]);
  });
});
