import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { faultsArb, portsOf, replay, videoCounters, workspaceCounters } from "./replay";

const WHISPER = "@cf/openai/whisper-large-v3-turbo";
const VISION = "@cf/meta/llama-4-scout-17b-16e-instruct";
const EMBEDDINGS = "@cf/baai/bge-m3";

afterEach(() => {
  vi.useRealTimers();
});

describe("usage under at-least-once delivery, with the production adapters over the simulators", () => {
  it("counts speech heard, frames seen and model calls once, whatever the duplicates and crashes", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now());
    const ports = portsOf("production");
    const calm = await replay(ports, []);
    const expected = await workspaceCounters(calm.workspaceId);
    // talk.mp4 (24 s): one audio window heard by Whisper, six frames described one per call,
    // and its segments embedded; every model's tokens as the simulator reports them.
    expect(expected).toMatchObject({
      "processed_seconds/": 24,
      [`model_calls/${WHISPER}`]: 1,
      [`audio_seconds/${WHISPER}`]: 24,
      [`model_calls/${VISION}`]: 6,
      "seen_seconds/": 24,
      [`model_calls/${EMBEDDINGS}`]: 1,
    });
    expect(expected["heard_seconds/"]).toBeGreaterThan(0);
    expect(expected[`input_tokens/${VISION}`]).toBeGreaterThan(0);
    expect(expected[`output_tokens/${VISION}`]).toBeGreaterThan(0);
    const own = await videoCounters(calm.videoId);
    expect(own).toEqual(expected);
    // A failure prints its seed and path: `{ numRuns: 12, seed, path }` replays that case.
    await fc.assert(
      fc.asyncProperty(faultsArb, async (faults) => {
        const { workspaceId, videoId } = await replay(ports, faults);
        expect(await workspaceCounters(workspaceId)).toEqual(expected);
        expect(await videoCounters(videoId)).toEqual(own);
      }),
      { numRuns: 12 },
    );
  }, 300_000);
});
