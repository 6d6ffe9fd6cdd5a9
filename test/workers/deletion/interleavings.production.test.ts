import fc from "fast-check";
import { afterEach, describe, it, vi } from "vitest";
import { runSchedule, scheduleArb } from "./schedule";
import { buildWorld } from "./world";

afterEach(() => {
  vi.useRealTimers();
});

describe("deleting a video at any point, with the production adapters over the simulators", () => {
  it("leaves nothing of it readable, and nothing stored once the sweep is done", async () => {
    // One clock for the Worker, its objects and the sweep, moved by the schedule alone.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now());
    const world = await buildWorld("production");
    // A failure prints its seed and path: `{ numRuns: 15, seed, path }` replays that case.
    // Each case is a new video of the same workspace, so cases neither see nor block each other.
    await fc.assert(
      fc.asyncProperty(scheduleArb("production"), (schedule) => runSchedule(world, schedule)),
      { numRuns: 15 },
    );
  }, 180_000);
});
