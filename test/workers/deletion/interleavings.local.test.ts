import fc from "fast-check";
import { afterEach, describe, it, vi } from "vitest";
import { runSchedule, scheduleArb } from "./schedule";
import { buildWorld } from "./world";

afterEach(() => {
  vi.useRealTimers();
});

describe("deleting a video at any point, with the local adapters", () => {
  it("leaves nothing of it readable, and nothing stored once the sweep is done", async () => {
    // One clock for the Worker, its objects and the sweep, moved by the schedule alone.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now());
    const world = await buildWorld("local");
    await fc.assert(
      fc.asyncProperty(scheduleArb("local"), (steps) => runSchedule(world, steps)),
      { numRuns: 15 },
    );
  }, 180_000);
});
