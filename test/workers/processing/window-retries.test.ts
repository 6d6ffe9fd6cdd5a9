import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { thumbnailFrameKey } from "../../../src/lib/object-keys";
import type { UnderstandWindowMessage } from "../../../src/lib/queue-messages";
import type { Ports } from "../../../src/ports";
import { consumeProcessing, consumeWindows } from "../../../src/queues/processing";
import { createDeps } from "../../../src/services/deps";
import { queuedVideo } from "../../helpers/processing";
import { recordingEnv } from "../../helpers/sweep";
import { simulatedEngine } from "./simulated-engine";

const WHISPER = "@cf/openai/whisper-large-v3-turbo";

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

/** A planned talk.mp4 (24 s): an audio window on `media-windows`, six frames on `media-frames`. */
async function plannedVideo(ports: Ports) {
  const { workspaceId, videoId } = await queuedVideo();
  const target = recordingEnv();
  const start = { type: "process-video", video_id: videoId, workspace_id: workspaceId };
  await deliver(consumeProcessing, "video-processing", [start], ports, target);
  const [audio] = target.queues.WINDOWS_QUEUE.sent as UnderstandWindowMessage[];
  const [frames] = target.queues.FRAMES_QUEUE.sent as UnderstandWindowMessage[];
  if (!audio || !frames) throw new Error("talk.mp4 was planned without its two windows");
  return { videoId, target, audio, frames };
}

interface WindowRow {
  state: string;
  result: string | null;
  claimed_until: string | null;
  claimed_by: string | null;
  parts: string | null;
}

async function windowRow(videoId: string, position: number): Promise<WindowRow> {
  const row = await env.DB.prepare(
    "SELECT state, result, claimed_until, claimed_by, parts FROM media_windows WHERE video_id = ? AND position = ?",
  )
    .bind(videoId, position)
    .first<WindowRow>();
  if (!row) throw new Error(`no window ${position} of ${videoId}`);
  return row;
}

function transient(): Error {
  return Object.assign(new Error("3040: Out of capacity"), { code: 3040 });
}

describe("a window whose work fails", () => {
  it("gives its claim back, so the retry claims it at once", async () => {
    let whisperDown = true;
    const { ports } = simulatedEngine();
    const { videoId, target, audio } = await plannedVideo(ports);
    const calls: string[] = [];
    const failing: Ports = {
      ...ports,
      understanding: {
        engine: ports.understanding.engine,
        plan: (input) => ports.understanding.plan(input),
        abandoned: (window) => ports.understanding.abandoned(window),
        assemble: (input, windows) => ports.understanding.assemble(input, windows),
        understandWindow: async (input, window, parts) => {
          calls.push(WHISPER);
          if (whisperDown) throw transient();
          return ports.understanding.understandWindow(input, window, parts);
        },
      },
    };

    const failed = await deliver(consumeWindows, "media-windows", [audio], failing, target);
    expect(failed.retryMessages).toHaveLength(1);
    expect(await windowRow(videoId, audio.position)).toMatchObject({
      state: "pending",
      claimed_until: null,
      claimed_by: null,
    });

    // The retry comes well within the 60 s claim the failed delivery held.
    whisperDown = false;
    const retried = await deliver(consumeWindows, "media-windows", [audio], failing, target);
    expect(retried.explicitAcks).toHaveLength(1);
    expect(calls).toHaveLength(2);
    expect((await windowRow(videoId, audio.position)).state).toBe("done");
  });

  it("leaves a claim another delivery took over, and a stale claim is still taken over", async () => {
    const { ports } = simulatedEngine();
    const { videoId, target, audio } = await plannedVideo(ports);
    const takeOver = (until: string, by: string) =>
      env.DB.prepare(
        "UPDATE media_windows SET claimed_until = ?, claimed_by = ? WHERE video_id = ? AND position = ?",
      )
        .bind(until, by, videoId, audio.position)
        .run();
    const later = new Date(Date.now() + 60_000).toISOString();
    const overtaken: Ports = {
      ...ports,
      understanding: {
        engine: ports.understanding.engine,
        plan: (input) => ports.understanding.plan(input),
        abandoned: (window) => ports.understanding.abandoned(window),
        assemble: (input, windows) => ports.understanding.assemble(input, windows),
        // Its claim ran out while it worked, another delivery took the window, then it failed.
        understandWindow: async () => {
          await takeOver(later, "another-delivery");
          throw transient();
        },
      },
    };
    const failed = await deliver(consumeWindows, "media-windows", [audio], overtaken, target);
    expect(failed.retryMessages).toHaveLength(1);
    expect(await windowRow(videoId, audio.position)).toMatchObject({
      claimed_until: later,
      claimed_by: "another-delivery",
    });
    const busy = await deliver(consumeWindows, "media-windows", [audio], ports, target);
    expect(busy.retryMessages).toHaveLength(1);

    await takeOver(new Date(Date.now() - 1000).toISOString(), "a-stopped-delivery");
    const stale = await deliver(consumeWindows, "media-windows", [audio], ports, target);
    expect(stale.explicitAcks).toHaveLength(1);
    expect(await windowRow(videoId, audio.position)).toMatchObject({
      state: "done",
      claimed_until: null,
      claimed_by: null,
    });
  });
});

describe("a frames window whose frames fail part way", () => {
  it("keeps the frames described, pays again only for the rest, and ends as a clean run", async () => {
    const clean = simulatedEngine();
    const first = await plannedVideo(clean.ports);
    const done = await deliver(
      consumeWindows,
      "media-frames",
      [first.frames],
      clean.ports,
      first.target,
    );
    expect(done.explicitAcks).toHaveLength(1);
    const cleanRow = await windowRow(first.videoId, first.frames.position);
    expect(clean.ai.vision.map((c) => c.time)).toHaveLength(6);

    // The vision model is out of capacity for the frames at 6 s and 14 s.
    const faulty = simulatedEngine({ refuse: (frame) => frame.time === 6 || frame.time === 14 });
    const second = await plannedVideo(faulty.ports);
    const failed = await deliver(
      consumeWindows,
      "media-frames",
      [second.frames],
      faulty.ports,
      second.target,
    );
    expect(failed.retryMessages).toHaveLength(1);
    const partway = await windowRow(second.videoId, second.frames.position);
    expect(partway).toMatchObject({ state: "pending", claimed_by: null });
    const kept = Object.keys(JSON.parse(partway.parts ?? "{}") as object).map(Number);
    // Frames 1 and 3 failed; no frame started after a failure is lost, none failed is kept.
    expect(kept).not.toContain(1);
    expect(kept).not.toContain(3);
    expect(kept).toContain(0);

    const retry = simulatedEngine();
    const retried = await deliver(
      consumeWindows,
      "media-frames",
      [second.frames],
      retry.ports,
      second.target,
    );
    expect(retried.explicitAcks).toHaveLength(1);
    // Only the frames not kept are described again: each frame is paid for once in all.
    const paid = retry.ai.vision.map((c) => c.time);
    const cells = [2, 6, 10, 14, 18, 22];
    expect(paid.sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(
      cells.filter((_, i) => !kept.includes(i)),
    );
    const described = [...faulty.ai.vision, ...retry.ai.vision].filter((c) => c.ok);
    expect(described.map((c) => c.time).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(cells);

    const row = await windowRow(second.videoId, second.frames.position);
    expect(row).toMatchObject({ state: "done", parts: null, claimed_by: null });
    expect(JSON.parse(row.result ?? "null")).toEqual(JSON.parse(cleanRow.result ?? ""));
    // The thumbnail frame, described by the failed delivery, is extracted again, not described.
    const thumbnailTime = async (videoId: string) =>
      (await env.MEDIA_BUCKET.head(thumbnailFrameKey(videoId)))?.customMetadata?.time;
    expect(await thumbnailTime(second.videoId)).toBe(await thumbnailTime(first.videoId));
    expect(await thumbnailTime(second.videoId)).toBeDefined();
  });
});
