import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { parentPort, workerData } from "node:worker_threads";
import { FrameTooLargeError, openCutter } from "../../../src/media/cut";
import { DEFAULT_WINDOW_SETTINGS } from "../../../src/media-understanding/windows";
import {
  ByteBudget,
  budgetedSpan,
  CUT_BYTES_IN_FLIGHT,
  cutPeakBytes,
} from "../../../src/ports/media-understanding/byte-budget";
import { longMp4 } from "../../helpers/long-mp4";

/** What the memory test asks of this worker: frames of a long MP4 of large frames. */
export interface FrameCutJob {
  hours: number;
  /** Every video packet's size: cuts of a chosen size. */
  frameBytes: number;
  /** Source times of the frames wanted, all cut at once as a frames window's are. */
  at: number[];
}

/** Each frame's time or why it was not cut, and what was held while cuts were extracted. */
export interface FrameCutAnswer {
  frames: (number | "frame-too-large")[];
  largestCutBytes: number;
  /** Heap and array buffers still reachable whenever a cut was handed on for extraction. */
  heldAtExtractionBytes: number;
  /** What was held, collected, before the cuts: the cutter opened, its tables read. */
  baselineBytes: number;
}

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const used = () => {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
};

/**
 * The frames window's path without its model calls (`extractAt` in frames-window.ts): the
 * span planned within the budget, its peak held while the cut is made and handed on.
 */
async function cut(job: FrameCutJob): Promise<FrameCutAnswer> {
  const source = await longMp4({ hours: job.hours, frameBytes: job.frameBytes, co64: true });
  const cutter = openCutter(source, "videos/vid_long/original");
  const budget = new ByteBudget(CUT_BYTES_IN_FLIGHT);
  const s = DEFAULT_WINDOW_SETTINGS;
  const limits = { maxOffset: s.maxFrameOffsetSeconds, maxBytes: s.maxInputBytes };
  await cutter.frameSpan(job.at[0] ?? 0, { maxOffset: 0, maxBytes: 0 });
  gc();
  gc();
  const answer = { largestCutBytes: 0, heldAtExtractionBytes: 0, baselineBytes: used() };
  const frames = await Promise.all(
    job.at.map(async (time) => {
      const span = await budgetedSpan(cutter, time, limits, budget).catch((error: unknown) => {
        if (error instanceof FrameTooLargeError) return "frame-too-large" as const;
        throw error;
      });
      if (span === null || span === "frame-too-large") return "frame-too-large" as const;
      return budget.use(cutPeakBytes(span.bytes), async () => {
        const made = await cutter.cutFrame(span);
        // Where the Media binding is handed the cut: what is reachable then.
        gc();
        answer.heldAtExtractionBytes = Math.max(answer.heldAtExtractionBytes, used());
        answer.largestCutBytes = Math.max(answer.largestCutBytes, made.bytes.length);
        await new Promise((resolve) => setTimeout(resolve, 5));
        return made.time;
      });
    }),
  );
  cutter.dispose();
  return { ...answer, frames };
}

// An error thrown here reaches the test as the worker's "error" event.
void cut(workerData as FrameCutJob).then((answer) => parentPort?.postMessage(answer));
