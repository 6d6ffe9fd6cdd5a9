import { readFile } from "node:fs/promises";
import path from "node:path";
import { type ResourceLimits, Worker } from "node:worker_threads";
import { build, type Plugin } from "esbuild";

/** Vite's `?inline` imports (media fixtures as base64 data URLs), for esbuild. */
const inlineAssets: Plugin = {
  name: "inline-assets",
  setup(builder) {
    builder.onResolve({ filter: /\?inline$/ }, (args) => ({
      path: path.resolve(args.resolveDir, args.path.replace(/\?inline$/, "")),
      namespace: "inline",
    }));
    builder.onLoad({ filter: /.*/, namespace: "inline" }, async (args) => {
      const base64 = (await readFile(args.path)).toString("base64");
      return { contents: `export default "data:application/octet-stream;base64,${base64}";` };
    });
  },
};

/** How a bundled worker ended: its one message, and the largest heap seen while it ran. */
export interface WorkerRun<T> {
  answer: T;
  /** Peak of V8 heap used plus external memory (array buffers), sampled every 10 ms. */
  peakBytes: number;
}

/**
 * Runs a TypeScript file in a worker thread of its own, bundled with esbuild (Vitest's
 * transform does not reach worker threads), under `limits`: a heap capped this way makes the
 * worker fail with ERR_WORKER_OUT_OF_MEMORY when what it holds outgrows the cap.
 */
export async function runBundledWorker<T>(
  file: string,
  workerData: unknown,
  limits: ResourceLimits,
): Promise<WorkerRun<T>> {
  const bundle = await build({
    entryPoints: [file],
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node22",
    write: false,
    logLevel: "silent",
    plugins: [inlineAssets],
  });
  const code = bundle.outputFiles[0]?.text ?? "";
  const worker = new Worker(code, { eval: true, workerData, resourceLimits: limits });
  let peakBytes = 0;
  const sampler = setInterval(() => {
    worker
      .getHeapStatistics()
      .then((heap) => {
        peakBytes = Math.max(peakBytes, heap.used_heap_size + heap.external_memory);
      })
      .catch(() => undefined);
  }, 10);
  try {
    const answer = await new Promise<T>((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
      worker.once("exit", (code) => reject(new Error(`The worker exited with ${code}.`)));
    });
    return { answer, peakBytes };
  } finally {
    clearInterval(sampler);
    await worker.terminate();
  }
}
