import { createMessageBatch } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { derivedConcurrency } from "../../../scripts/lib/consumer-concurrency.mjs";
import { type Faults, faultsFrom } from "../../../simulators/faults";
import { SimulatedMedia } from "../../../simulators/media";
import { SimulatedAi } from "../../../simulators/workers-ai";
import { RateWindow } from "../../../simulators/workers-ai/rate-window";
import type { Env } from "../../../src/env";
import type { AssembleVideoMessage } from "../../../src/lib/queue-messages";
import type { CallEnvironment } from "../../../src/ports/ai/model-calls";
import { attemptsWithin } from "../../helpers/instant-calls";
import { queuedVideo } from "../../helpers/processing";
import { RecordingQueue } from "../../helpers/sweep";
import { type IsolateConsumer, PlatformQueue } from "./queue-platform";
import { CountingAi } from "./simulated-engine";

// The windows consumers run as the platform runs them, not as `wrangler dev` does (one batch
// of a queue at a time): several batches of each queue at once, in two isolates, each with
// its own copy of every module (its own cut budget, limiter turns and opened sources), over
// the same D1 and R2, with a fifth of all model and media calls failing for a while.

/** `npm run bench -- window-contention` runs the same with more uploads and reports it. */
const BENCH = env.CONTENTION_UPLOADS !== "";
const UPLOADS = BENCH ? Number(env.CONTENTION_UPLOADS) : 20;
const FAULT_RATE = "0.2";

/**
 * A call tried twice (its retry inside the call, as production's two minutes allow several):
 * a fault still there on the second try fails the window, which is then retried from its
 * queue. Slots are given at once; the simulated account's clock moves at the limiter's pace.
 */
const TWO_ATTEMPTS: CallEnvironment = attemptsWithin(1500);

/** A seeded PRNG (mulberry32), so the faults are the same from run to run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The account: simulated Workers AI and Media Transformations, shared by every isolate. */
function account(faults: Faults) {
  let clock = 0;
  const simulated = new SimulatedAi({
    bucket: env.MEDIA_BUCKET,
    faults,
    vision: "describe",
    rates: new RateWindow(),
    // Calls reach the account at the pace the limiter keeps for vision, the tightest rate.
    now: () => (clock += 60_000 / 285),
  });
  return { ai: new CountingAi(simulated), media: new SimulatedMedia(faults) };
}

/**
 * One isolate: every module of the Worker loaded afresh (nothing in memory is shared with
 * another isolate), its ports built once, each batch handled by its `handleQueue`.
 */
async function isolate(target: Env, platform: ReturnType<typeof account>) {
  vi.resetModules();
  // mediabunny marks the global scope it loads in; another isolate's scope is its own.
  Reflect.deleteProperty(globalThis, Symbol.for("mediabunny loaded"));
  const [{ handleQueue }, { createPorts }, workersAi, { R2FrameStore }, ai, budget] =
    await Promise.all([
      import("../../../src/queues/index"),
      import("../../../src/ports/index"),
      import("../../../src/ports/media-understanding/workers-ai"),
      import("../../../src/ports/media-understanding/frame-store"),
      import("../../../src/ports/ai/model-calls"),
      import("../../../src/ports/media-understanding/byte-budget"),
    ]);
  const ports = {
    ...createPorts(target),
    understanding: new workersAi.WorkersAiMediaUnderstanding({
      ai: ai.pacedAi(platform.ai, TWO_ATTEMPTS),
      media: platform.media,
      frames: new R2FrameStore(env.MEDIA_BUCKET),
      mediaRetries: TWO_ATTEMPTS,
    }),
  };
  const consume: IsolateConsumer = (batch) => handleQueue(batch, target, ports);
  return { consume, cutBudget: budget.isolateCutBudget };
}

/** Plans `count` uploads at once, each in an invocation of its own; answers their ids. */
async function planned(count: number, consume: IsolateConsumer) {
  const videos = await Promise.all(Array.from({ length: count }, () => queuedVideo()));
  await Promise.all(
    videos.map(({ videoId, workspaceId }) =>
      consume(
        createMessageBatch("video-processing", [
          {
            id: crypto.randomUUID(),
            timestamp: new Date(),
            attempts: 1,
            body: { type: "process-video", video_id: videoId, workspace_id: workspaceId },
          },
        ]),
      ),
    ),
  );
  return videos.map((v) => v.videoId);
}

/** A video's windows as stored, by position. */
async function windowsOf(videoId: string) {
  const { results } = await env.DB.prepare(
    "SELECT position, state, result FROM media_windows WHERE video_id = ? ORDER BY position",
  )
    .bind(videoId)
    .all<{ position: number; state: string; result: string | null }>();
  return results;
}

/** The platform's queues for one world: windows and frames run as configured, the rest kept. */
function platformEnv(msPerSecond: number, duplicateEvery: number) {
  const settings = (queue: string) => ({
    maxBatchSize: 5,
    maxRetries: 8,
    maxConcurrency: derivedConcurrency(queue),
  });
  const windows = new PlatformQueue("media-windows", settings("media-windows"), {
    msPerSecond,
    duplicateEvery,
  });
  const frames = new PlatformQueue("media-frames", settings("media-frames"), {
    msPerSecond,
    duplicateEvery,
  });
  const processing = new RecordingQueue();
  const target: Env = {
    ...env,
    WINDOWS_QUEUE: windows,
    FRAMES_QUEUE: frames,
    PROCESSING_QUEUE: processing,
  };
  return { target, windows, frames, processing };
}

describe("windows under contention, as the platform delivers them", () => {
  it(
    `understands every window of ${UPLOADS} uploads with 20 % faults, none paid twice or dead-lettered`,
    async () => {
      // A clean run of one upload gives each window's result, to compare against.
      const calm = platformEnv(10, Number.POSITIVE_INFINITY);
      const clean = account({ delay: async () => undefined, fails: () => false });
      const quiet = await isolate(calm.target, clean);
      const [reference = ""] = await planned(1, quiet.consume);
      await Promise.all([calm.windows.drain([quiet.consume]), calm.frames.drain([quiet.consume])]);
      const expected = await windowsOf(reference);
      // talk.mp4 is 24 s: an audio window and a frames window of six frames.
      expect(expected.map((w) => w.state)).toEqual(["done", "done"]);

      // Each second of a retry's delay passes in 10 ms: a retry comes back long before the 60 s
      // claim of the delivery that failed would have run out.
      const world = platformEnv(10, 7);
      const faults = faultsFrom({ SIMULATE_FAULT_RATE: FAULT_RATE }, seeded(39));
      const platform = account(faults);
      const one = await isolate(world.target, platform);
      const other = await isolate(world.target, platform);
      expect(one.cutBudget).not.toBe(other.cutBudget);
      const started = Date.now();
      const videos = await planned(UPLOADS, one.consume);
      const isolates = [one.consume, other.consume];
      const planning = Date.now() - started;
      const [audio, frames] = await Promise.all([
        world.windows.drain(isolates),
        world.frames.drain(isolates),
      ]);

      for (const report of [audio, frames]) {
        expect(report.deadLettered).toEqual([]);
        expect(report.isolatesAtOnce).toBe(2);
        expect(report.mostInOneIsolate).toBeGreaterThan(1);
        expect(report.retries).toBeGreaterThan(0);
        expect(report.duplicates).toBeGreaterThan(0);
      }
      expect(frames.mostAtOnce).toBe(derivedConcurrency("media-frames"));
      expect(audio.mostAtOnce).toBeGreaterThan(derivedConcurrency("media-frames"));
      // Faults reached the windows: some vision calls failed.
      expect(platform.ai.vision.filter((c) => !c.ok).length).toBeGreaterThan(10);

      for (const videoId of videos) {
        const stored = await windowsOf(videoId);
        expect(stored, videoId).toEqual(expected);
      }
      // Every frame of every upload was described once, by exactly one vision call that answered.
      const described = platform.ai.described();
      expect(described.size).toBe(UPLOADS * 6);
      expect([...described.values()].filter((n) => n !== 1)).toEqual([]);
      const assembled = world.processing.sent as AssembleVideoMessage[];
      expect(new Set(assembled.map((m) => m.video_id))).toEqual(new Set(videos));
      if (BENCH) {
        const vision = { calls: platform.ai.vision.length, described: described.size };
        const elapsed = { planning, windows: Date.now() - started - planning };
        console.log(
          JSON.stringify({ window_contention: { UPLOADS, audio, frames, vision, elapsed } }),
        );
      }
      // About 8 s of CPU for 20 uploads; the machine running the suite is shared, so the wall
      // time is given room.
    },
    120_000 * Math.max(1, UPLOADS / 20),
  );
});
