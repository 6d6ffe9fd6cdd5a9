import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { NO_MEDIA_USAGE } from "../../../src/domain/usage";
import type { UnderstandWindowMessage } from "../../../src/lib/queue-messages";
import type { Ports } from "../../../src/ports";
import { consumeProcessing, consumeWindows } from "../../../src/queues/processing";
import { createDeps } from "../../../src/services/deps";
import { queuedVideo } from "../../helpers/processing";
import { recordingEnv } from "../../helpers/sweep";
import { simulatedEngine, VISION } from "../processing/simulated-engine";
import { videoCounters, workspaceCounters } from "./replay";

async function deliver(queue: string, body: unknown, ports: Ports, target = recordingEnv()) {
  const batch = createMessageBatch(queue, [
    { id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body },
  ]);
  const consume = queue === "video-processing" ? consumeProcessing : consumeWindows;
  await consume(batch, createDeps(target.env, ports));
  return getQueueResult(batch, createExecutionContext());
}

describe("a window whose claim ran out while its delivery worked", () => {
  it("is counted once: by the delivery that took it over and stored it first", async () => {
    const { ports, ai } = simulatedEngine();
    const { workspaceId, videoId } = await queuedVideo();
    const target = recordingEnv();
    const start = { type: "process-video", video_id: videoId, workspace_id: workspaceId };
    await deliver("video-processing", start, ports, target);
    const [frames] = target.queues.FRAMES_QUEUE.sent as UnderstandWindowMessage[];
    if (!frames) throw new Error("talk.mp4 was planned without a frames window");

    let resume = () => {};
    const resumed = new Promise<void>((resolve) => {
      resume = resolve;
    });
    let understood = () => {};
    const slowDone = new Promise<void>((resolve) => {
      understood = resolve;
    });
    const slow: Ports = {
      ...ports,
      understanding: {
        engine: ports.understanding.engine,
        plan: (input) => ports.understanding.plan(input),
        abandoned: (window) => ports.understanding.abandoned(window),
        assemble: (input, windows) => ports.understanding.assemble(input, windows),
        usage: (window, result) => ports.understanding.usage?.(window, result) ?? NO_MEDIA_USAGE,
        // Its work is done, but it stalls before storing it, past its claim.
        understandWindow: async (input, window) => {
          const result = await ports.understanding.understandWindow(input, window);
          understood();
          await resumed;
          return result;
        },
      },
    };
    const late = deliver("media-frames", frames, slow);
    await slowDone;
    await env.DB.prepare(
      "UPDATE media_windows SET claimed_until = ? WHERE video_id = ? AND position = ?",
    )
      .bind(new Date(Date.now() - 1000).toISOString(), videoId, frames.position)
      .run();
    expect((await deliver("media-frames", frames, ports)).explicitAcks).toHaveLength(1);
    resume();
    expect((await late).explicitAcks).toHaveLength(1);

    // Both deliveries described all six frames; the window, and its calls, count once.
    expect(ai.vision.filter((call) => call.ok)).toHaveLength(12);
    const counted = await workspaceCounters(workspaceId);
    expect(counted[`model_calls/${VISION}`]).toBe(6);
    expect(counted["seen_seconds/"]).toBe(24);
    expect((await videoCounters(videoId))[`model_calls/${VISION}`]).toBe(6);
  });
});
