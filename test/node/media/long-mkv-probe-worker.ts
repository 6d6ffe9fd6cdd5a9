import { parentPort, workerData } from "node:worker_threads";
import { probeMedia } from "../../../src/media/probe";
import { longMkvVideo } from "../../helpers/long-mkv-video";
import { countingSource } from "../../helpers/media-sources";

/** What the memory test asks of this worker: probe a long Matroska video of `hours`. */
export interface MkvProbeJob {
  hours: number;
  container: "mkv" | "webm";
}

/** What the worker answers: what the probe measured, what it read and how long it took. */
export interface MkvProbeAnswer {
  duration: number;
  frameCount: number;
  keyframes: number;
  fileBytes: number;
  reads: number;
  bytesRead: number;
  largestRead: number;
  seconds: number;
  /** Of `seconds`, the time the virtual file took to make the bytes read. */
  sourceSeconds: number;
}

async function probe(job: MkvProbeJob): Promise<MkvProbeAnswer> {
  const file = await longMkvVideo(job);
  let sourceSeconds = 0;
  const timed = async <T>(make: () => Promise<T>) => {
    const began = performance.now();
    const made = await make();
    sourceSeconds += (performance.now() - began) / 1000;
    return made;
  };
  const stream = file.stream?.bind(file);
  const source = countingSource({
    size: file.size,
    read: (start, end) => timed(() => file.read(start, end)),
    ...(stream && {
      async *stream(start: number, end: number) {
        const pieces = stream(start, end)[Symbol.asyncIterator]();
        for (let next = await timed(() => pieces.next()); !next.done; ) {
          yield next.value;
          next = await timed(() => pieces.next());
        }
      },
    }),
  });
  const started = performance.now();
  const measured = await probeMedia(source, {
    filename: `long.${job.container}`,
    contentType: job.container === "mkv" ? "video/x-matroska" : "video/webm",
  });
  return {
    duration: measured.duration,
    frameCount: measured.video?.frameCount ?? 0,
    keyframes: measured.keyframes.length,
    fileBytes: source.size,
    reads: source.log.calls,
    bytesRead: source.log.bytes,
    largestRead: source.log.largestRead,
    seconds: (performance.now() - started) / 1000,
    sourceSeconds,
  };
}

// An error thrown here reaches the test as the worker's "error" event.
void probe(workerData as MkvProbeJob).then((answer) => parentPort?.postMessage(answer));
