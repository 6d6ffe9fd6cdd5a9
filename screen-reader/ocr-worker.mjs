// One OCR worker of the pool (ocr-pool.mjs): its own PP-OCRv4 sessions on one ONNX Runtime
// thread, reading the images the server hands it, one at a time.
import { parentPort } from "node:worker_threads";
import Ocr from "@gutenye/ocr-node";
import { ocrFastPaths } from "./ocr-fast-paths.mjs";
import { readLines } from "./read-frame.mjs";
import { respaceRecognition } from "./respace.mjs";

try {
  await ocrFastPaths();
  await respaceRecognition();
  // One thread each: a session's runs block the thread that calls them, and two threads of
  // one session spend more time waiting on each other than two sessions of one thread do.
  const ocr = await Ocr.create({
    onnxOptions: { intraOpNumThreads: 1, interOpNumThreads: 1 },
  });
  parentPort.on("message", async ({ id, imagePath }) => {
    try {
      parentPort.postMessage({ id, lines: await readLines(ocr, imagePath) });
    } catch (error) {
      parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
    }
  });
  parentPort.postMessage({ ready: true });
} catch (error) {
  parentPort.postMessage({ failed: error instanceof Error ? error.message : String(error) });
}
