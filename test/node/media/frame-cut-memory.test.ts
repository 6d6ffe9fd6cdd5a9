import path from "node:path";
import { describe, expect, it } from "vitest";
import { CUT_BYTES_IN_FLIGHT } from "../../../src/ports/media-understanding/byte-budget";
import { runBundledWorker } from "./bundled-worker";
import type { FrameCutAnswer, FrameCutJob } from "./frame-cut-worker";
import { MB } from "./memory";

const WORKER = path.join(import.meta.dirname, "frame-cut-worker.ts");
/** The window's frames, 9 hours in: 1 s and 1.9 s after key frames (a GOP is 2 s). */
const AT = [32_401, 32_405.9, 32_409, 32_413.9];
/** Garbage not yet collected that a sampled peak may show beside the cuts' peaks. */
const GARBAGE_MB = 24;

const frameWindow = (job: FrameCutJob) =>
  runBundledWorker<FrameCutAnswer>(WORKER, job, {
    // Past the cap the worker fails with ERR_WORKER_OUT_OF_MEMORY; buffers are not capped.
    maxOldGenerationSizeMb: 32,
    maxYoungGenerationSizeMb: 8,
  });

describe("a frames window's cuts of a 10-hour MP4 whose frames are large", () => {
  it("cuts key frames alone when the frames up to the wanted one would not fit the budget", async () => {
    // 1 MB frames at 30 fps: up to the frame 1.9 s on (and half a second past it) is 73 MB,
    // under the Media binding's 100 MB but twice that at its peak; the key frame's is 16 MB.
    const run = await frameWindow({ hours: 10, frameBytes: 1_000_000, at: AT });
    expect(run.answer.frames).toEqual([32_400, 32_404, 32_408, 32_412]);
    expect(run.answer.largestCutBytes / MB).toBeLessThan(CUT_BYTES_IN_FLIGHT / 2 / MB);
    // Above what the opened cutter holds: what is reachable while frames are extracted stays
    // within the budget; the sampled peak adds only garbage not yet collected.
    const budget = CUT_BYTES_IN_FLIGHT / MB;
    const live = (run.answer.heldAtExtractionBytes - run.answer.baselineBytes) / MB;
    expect(live, `the window held ${live.toFixed(1)} MB`).toBeLessThan(budget);
    const peak = (run.peakBytes - run.answer.baselineBytes) / MB;
    expect(peak, `the window peaked at ${peak.toFixed(1)} MB`).toBeLessThan(budget + GARBAGE_MB);
  }, 120_000);

  it("names a frame whose key frame alone would not fit, and cuts nothing", async () => {
    // 20 MB frames: the key frame and the half second after it are 320 MB.
    const run = await frameWindow({ hours: 10, frameBytes: 20_000_000, at: AT.slice(0, 2) });
    expect(run.answer).toEqual({
      frames: ["frame-too-large", "frame-too-large"],
      largestCutBytes: 0,
      heldAtExtractionBytes: 0,
      baselineBytes: expect.any(Number),
    });
    const peak = (run.peakBytes - run.answer.baselineBytes) / MB;
    expect(peak, `the window peaked at ${peak.toFixed(1)} MB`).toBeLessThan(GARBAGE_MB);
  }, 120_000);
});
