import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { Cutter } from "../../../src/media/cut";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

export const MB = 1024 * 1024;
export const HOUR = 3600;
/** A Worker has 128 MB; a batch holds one cutter per video beside its cuts and everything else. */
export const CUTTER_BOUND_MB = 32;

/** V8 heap and array buffers still reachable after a full collection, in MB. */
export function retainedMb(): number {
  gc();
  gc();
  const usage = process.memoryUsage();
  return (usage.heapUsed + usage.arrayBuffers) / MB;
}

/**
 * What a frames-and-audio window of a batch asks of the cutter near the end of a file of
 * `hours`: audio an hour before the end, a frame half an hour before it. Facts, not bytes.
 */
export async function cutNearTheEnd(cutter: Cutter, hours: number) {
  const audio = await cutter.audio((hours - 1) * HOUR, (hours - 1) * HOUR + 60);
  const span = await cutter.frameSpan((hours - 0.5) * HOUR, { maxOffset: 30, maxBytes: 100e6 });
  const frame = span && (await cutter.cutFrame(span));
  return {
    audio: audio && { start: audio.start, end: audio.end, bytes: audio.bytes.length > 0 },
    frame: frame && { time: frame.time, bytes: frame.bytes.length > 0 },
  };
}
