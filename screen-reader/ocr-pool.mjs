// PP-OCRv4 in worker threads (ocr-worker.mjs). ONNX Runtime's Node binding runs a model on
// the thread that calls it, so OCR on the main thread would stall every request and decode
// while it runs; a worker per core reads frames side by side and the main thread stays free.
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";

const WORKER = new URL("./ocr-worker.mjs", import.meta.url);

/** Workers to start: one per core, at most two (each holds its own models, about 250 MB). */
export function ocrWorkerCount() {
  return Math.max(1, Math.min(2, availableParallelism()));
}

/**
 * Starts one OCR worker and resolves once it has loaded its models (rejecting with its reason
 * when they cannot load here); more start, up to `size`, only when a read finds every worker
 * busy, so a reader that never reads two frames at once pays for one. `read(imagePath)`
 * answers the lines read in an image file, in turn with the other reads (first come, first
 * served).
 */
export async function startOcrPool(size = ocrWorkerCount()) {
  const idle = [];
  const waiting = [];
  const workers = new Set();
  let closed = false;
  let canGrow = true;

  const dispatch = () => {
    while (idle.length > 0 && waiting.length > 0) idle.shift().take(waiting.shift());
  };

  /** A worker; when it dies it fails its read and a new one takes its place. */
  const spawn = () =>
    new Promise((resolve, reject) => {
      const worker = new Worker(WORKER);
      let job = null;
      let ready = false;
      const slot = {
        take(next) {
          job = next;
          worker.postMessage({ id: 0, imagePath: next.imagePath });
        },
      };
      workers.add(worker);
      worker.on("message", (message) => {
        if (message.failed) return reject(new Error(message.failed));
        if (message.ready) {
          ready = true;
          idle.push(slot);
          dispatch();
          return resolve();
        }
        const done = job;
        job = null;
        idle.push(slot);
        dispatch();
        if (message.error) done?.reject(new Error(message.error));
        else done?.resolve(message.lines);
      });
      worker.on("error", (error) => job?.reject(error));
      worker.on("exit", (code) => {
        workers.delete(worker);
        const at = idle.indexOf(slot);
        if (at >= 0) idle.splice(at, 1);
        job?.reject(new Error(`an OCR worker stopped (exit ${code})`));
        job = null;
        if (!ready) return reject(new Error(`an OCR worker stopped while loading (exit ${code})`));
        if (!closed) spawn().catch(() => undefined);
      });
    });

  /**
   * Another worker when reads wait and the pool is not full (a worker is counted from the
   * moment it starts loading); when one cannot load, the pool stays as it is.
   */
  const grow = () => {
    if (closed || !canGrow || waiting.length === 0 || workers.size >= size) return;
    spawn().catch(() => {
      canGrow = false;
    });
  };

  await spawn();
  return {
    size,
    /** Workers running or loading now (`size` at most). */
    get started() {
      return workers.size;
    },
    read(imagePath) {
      return new Promise((resolve, reject) => {
        waiting.push({ imagePath, resolve, reject });
        dispatch();
        grow();
      });
    },
    async close() {
      closed = true;
      await Promise.all([...workers].map((worker) => worker.terminate()));
    },
  };
}
