import { parentPort, workerData } from "node:worker_threads";
import { probeMedia } from "../../../src/media/probe";
import { longMp4 } from "../../helpers/long-mp4";

/** What the memory test asks of this worker: probe a long MP4 of `hours`. */
export interface ProbeJob {
  hours: number;
}

/** What the worker answers: what the probe measured and how long it took. */
export interface ProbeAnswer {
  duration: number;
  frameCount: number;
  keyframes: number;
  seconds: number;
}

async function probe(job: ProbeJob): Promise<ProbeAnswer> {
  const source = await longMp4({ hours: job.hours });
  const started = performance.now();
  const measured = await probeMedia(source, { filename: "long.mp4", contentType: "video/mp4" });
  return {
    duration: measured.duration,
    frameCount: measured.video?.frameCount ?? 0,
    keyframes: measured.keyframes.length,
    seconds: (performance.now() - started) / 1000,
  };
}

// An error thrown here reaches the test as the worker's "error" event.
void probe(workerData as ProbeJob).then((answer) => parentPort?.postMessage(answer));
