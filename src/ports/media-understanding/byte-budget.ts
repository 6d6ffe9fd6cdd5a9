import { SharedSemaphore } from "../../lib/shared-semaphore";

/**
 * Bytes of frame cuts one isolate holds at once. A Worker has 128 MB; cuts are held while the
 * edge extracts their frame, and one may be up to the Media binding's 100 MB input limit, so
 * with many frames in flight they are counted against this share of it.
 */
export const CUT_BYTES_IN_FLIGHT = 48 * 1024 * 1024;

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
}

/** The budget every engine of this isolate shares (the module lives as long as the isolate). */
export const isolateCutBudget = new ByteBudget(CUT_BYTES_IN_FLIGHT);
