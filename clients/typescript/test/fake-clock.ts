import type { Clock } from "../src/index.js";

/** A clock whose sleeps return at once, move its time on and are recorded. */
export function fakeClock(start = 0) {
  let now = start;
  const sleeps: number[] = [];
  const clock: Clock = {
    now: () => now,
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      sleeps.push(ms);
      now += ms;
    },
  };
  return { clock, sleeps };
}
