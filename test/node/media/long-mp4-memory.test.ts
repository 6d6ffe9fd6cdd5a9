import path from "node:path";
import { describe, expect, it } from "vitest";
import type { RangeSource } from "../../../src/domain/media";
import { openCutter } from "../../../src/media/cut";
import { longMp4 } from "../../helpers/long-mp4";
import { runBundledWorker } from "./bundled-worker";
import type { ProbeAnswer, ProbeJob } from "./long-mp4-probe-worker";
import { CUTTER_BOUND_MB, cutNearTheEnd, HOUR, MB, retainedMb } from "./memory";

// 10 hours of 1080p is about 6 GB; 50 hours is the 10 GiB upload limit at 0.45 Mbit/s. The
// sample tables of 50 hours are 100 MB: they are read by ranges, never held.
describe.each([10, 50])("a %i-hour 1080p MP4, moov at the end", (hours) => {
  it(`is cut an hour and half an hour from its end by a cutter that holds under ${CUTTER_BOUND_MB} MB`, async () => {
    const source: RangeSource = await longMp4({ hours });
    const before = retainedMb();
    const cutter = openCutter(source, "videos/vid_long/original");
    const cuts = await cutNearTheEnd(cutter, hours);
    const held = retainedMb() - before;
    expect(cuts).toEqual({
      audio: {
        start: (hours - 1) * HOUR,
        end: expect.closeTo((hours - 1) * HOUR + 60, 1),
        bytes: true,
      },
      frame: { time: (hours - 0.5) * HOUR, bytes: true },
    });
    expect(held, `the cutter holds ${held.toFixed(1)} MB`).toBeLessThan(CUTTER_BOUND_MB);
    cutter.dispose();
  });

  it("is probed by a worker whose V8 heap is capped at 32 MB, peaking under 64 MB", async () => {
    const run = await runBundledWorker<ProbeAnswer>(
      path.join(import.meta.dirname, "long-mp4-probe-worker.ts"),
      { hours } satisfies ProbeJob,
      // Past the cap the worker fails with ERR_WORKER_OUT_OF_MEMORY; buffers are not capped.
      { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 },
    );
    expect(run.answer).toMatchObject({
      duration: hours * HOUR,
      frameCount: hours * HOUR * 30,
      keyframes: (hours * HOUR) / 2,
    });
    const peak = run.peakBytes / MB;
    // Sampled heap (garbage included) and buffers: the moov is not to be held whole either.
    expect(peak, `the probe peaked at ${peak.toFixed(1)} MB`).toBeLessThan(64);
  });
});
