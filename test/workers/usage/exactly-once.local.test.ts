import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { faultsArb, portsOf, replay, videoCounters, workspaceCounters } from "./replay";

afterEach(() => {
  vi.useRealTimers();
});

describe("usage under at-least-once delivery, with the local adapters", () => {
  it("counts a video's processing as a fault-free delivery does, whatever the duplicates and crashes", async () => {
    // One clock for the consumers, their claims and the sweep, moved by the replay alone.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now());
    const ports = portsOf("local");
    const calm = await replay(ports, []);
    const expected = await workspaceCounters(calm.workspaceId);
    // The local engine calls no model: what it counts is the seconds processed.
    expect(Object.keys(expected)).toEqual(["processed_seconds/"]);
    expect(expected["processed_seconds/"]).toBeGreaterThan(0);
    const own = await videoCounters(calm.videoId);
    expect(own).toEqual(expected);
    // A failure prints its seed and path: `{ numRuns: 20, seed, path }` replays that case.
    await fc.assert(
      fc.asyncProperty(faultsArb, async (faults) => {
        const { workspaceId, videoId } = await replay(ports, faults);
        expect(await workspaceCounters(workspaceId)).toEqual(expected);
        expect(await videoCounters(videoId)).toEqual(own);
      }),
      { numRuns: 20 },
    );
  }, 240_000);
});
