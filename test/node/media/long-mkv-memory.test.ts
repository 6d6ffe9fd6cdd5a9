import path from "node:path";
import { describe, expect, it } from "vitest";
import { openCutter } from "../../../src/media/cut";
import { longMkvVideo } from "../../helpers/long-mkv-video";
import { countingSource } from "../../helpers/media-sources";
import { runBundledWorker } from "./bundled-worker";
import type { MkvProbeAnswer, MkvProbeJob } from "./long-mkv-probe-worker";
import { CUTTER_BOUND_MB, cutNearTheEnd, HOUR, MB, retainedMb } from "./memory";

// 10 hours of the 1080p GOP is 5.7 GB (a real 10-hour MKV measured 6 GB); 50 hours is 28 GB,
// past the 10 GiB upload limit, but its Cues and Clusters are as many as any 50 hours'. The
// WebM repeats 160x90 VP9 and Opus: 2 GB for 50 hours, a Cluster of 20 KB every 2 s.
const files = [
  { hours: 10, container: "mkv" },
  { hours: 50, container: "mkv" },
  { hours: 50, container: "webm" },
] as const;

describe.each(files)("a $hours-hour $container with Cues at the end", ({ hours, container }) => {
  it(`is cut an hour and half an hour from its end holding under ${CUTTER_BOUND_MB} MB`, async () => {
    const source = countingSource(await longMkvVideo({ hours, container }));
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
    // The Cues lead to the Clusters cut (100 reads, 17 MB at 50 hours), not the hours before.
    const read = `${source.log.calls} reads, ${(source.log.bytes / MB).toFixed(1)} MB`;
    expect(source.log.calls, read).toBeLessThan(200);
    expect(source.log.bytes / MB, read).toBeLessThan(32);
    cutter.dispose();
  });
});

// 20 hours is 10.6 GiB: past 8 GiB, where the stretches read reach their 32 MiB cap.
describe("a 20-hour 1080p MKV of 10.6 GiB", () => {
  it("is probed by a worker whose V8 heap is capped at 32 MB, peaking under 48 MB", async () => {
    const run = await runBundledWorker<MkvProbeAnswer>(
      path.join(import.meta.dirname, "long-mkv-probe-worker.ts"),
      { hours: 20, container: "mkv" } satisfies MkvProbeJob,
      // Past the cap the worker fails with ERR_WORKER_OUT_OF_MEMORY; buffers are not capped.
      { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 },
    );
    expect(run.answer).toMatchObject({
      duration: 20 * HOUR,
      frameCount: 20 * HOUR * 25,
      keyframes: (20 * HOUR) / 2,
    });
    // The walk streams every Cluster once, a stretch of size / 256 (at most 32 MiB) a get; the
    // Cues after the last Cluster are not read.
    const { bytesRead, fileBytes } = run.answer;
    expect(bytesRead).toBeLessThanOrEqual(fileBytes);
    expect(bytesRead / fileBytes).toBeGreaterThan(0.999);
    expect(run.answer.reads).toBeLessThanOrEqual(400);
    // The header's windows and the stream's pieces: a stretch is never held whole.
    expect(run.answer.largestRead / MB).toBeLessThan(4);
    const peak = run.peakBytes / MB;
    // Sampled heap (garbage included) and buffers; walked in whole windows it was 85 MB.
    expect(peak, `the probe peaked at ${peak.toFixed(1)} MB`).toBeLessThan(48);
  });
});
