import { SharedSemaphore } from "../../lib/shared-semaphore";
import { type Cutter, type FrameSpan, FrameTooLargeError } from "../../media/cut";

/**
 * Bytes of frame cuts one isolate holds at once, counted at their peaks. A Worker has 128 MB;
 * this share leaves room for the cutter, a probe and everything else of the isolate.
 */
export const CUT_BYTES_IN_FLIGHT = 48 * 1024 * 1024;

/**
 * A frame cut peaks at about twice its size while it is made: the muxer holds its packets,
 * then writes them into the finished file (measured in node: a 61 MB cut adds 127 MB, a 30 MB
 * one 65 MB; docs/media-understanding.md, "Cuts in memory").
 */
export const CUT_PEAK_FACTOR = 2;

/** What a cut of `bytes` holds at its peak, the bytes reserved for it. */
export function cutPeakBytes(bytes: number): number {
  return Math.ceil(bytes * CUT_PEAK_FACTOR);
}

/**
 * A semaphore weighted by bytes: `use` waits until its bytes fit beside what is held, first
 * come first served (a large request is never passed over by smaller ones behind it). A
 * request larger than the whole budget waits until nothing is held, then runs alone. It is
 * shared by every invocation of the isolate, safely across their request contexts.
 */
export class ByteBudget extends SharedSemaphore {
  constructor(readonly limit: number) {
    super({ capacity: limit });
  }

  /** The largest cut whose peak fits the whole budget. */
  get largestCut(): number {
    return Math.floor(this.limit / CUT_PEAK_FACTOR);
  }
}

/** The budget every engine of this isolate shares (the module lives as long as the isolate). */
export const isolateCutBudget = new ByteBudget(CUT_BYTES_IN_FLIGHT);

/**
 * What the frame cut at `time` copies, at most what `budget` holds at its peak or `maxBytes`
 * (the key frame alone past that). Throws `FrameTooLargeError` when the key frame's cut is
 * larger still: it is never made. Null without video.
 */
export async function budgetedSpan(
  cutter: Cutter,
  time: number,
  limits: { maxOffset: number; maxBytes: number },
  budget: ByteBudget,
): Promise<FrameSpan | null> {
  const maxBytes = Math.min(limits.maxBytes, budget.largestCut);
  const span = await cutter.frameSpan(time, { maxOffset: limits.maxOffset, maxBytes });
  if (span && span.bytes > maxBytes) {
    throw new FrameTooLargeError(`the key frame's cut is ${span.bytes} bytes, past ${maxBytes}`);
  }
  return span;
}
