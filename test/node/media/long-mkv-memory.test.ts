import path from "node:path";
import { describe, expect, it } from "vitest";
import { openCutter } from "../../../src/ports/media-understanding/cut";
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

describe("a 10-hour 1080p MKV", () => {
  it("is probed by a worker whose V8 heap is capped at 32 MB, peaking under 64 MB", async () => {
    const run = await runBundledWorker<MkvProbeAnswer>(
      path.join(import.meta.dirname, "long-mkv-probe-worker.ts"),
      { hours: 10, container: "mkv" } satisfies MkvProbeJob,
      // Past the cap the worker fails with ERR_WORKER_OUT_OF_MEMORY; buffers are not capped.
      { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 },
    );
    expect(run.answer).toMatchObject({
      duration: 10 * HOUR,
      frameCount: 10 * HOUR * 25,
      keyframes: (10 * HOUR) / 2,
      // The walk reads every Cluster, in windows of size / 256 (22 MB here).
      bytesRead: expect.closeTo(run.answer.fileBytes, -6),
    });
    expect(run.answer.reads).toBeLessThanOrEqual(320);
    const peak = run.peakBytes / MB;
    // Sampled heap (garbage included) and buffers: the window being read and the one before it.
    expect(peak, `the probe peaked at ${peak.toFixed(1)} MB`).toBeLessThan(64);
  });
});
