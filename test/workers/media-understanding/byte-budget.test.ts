import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { openCutter } from "../../../src/media/cut";
import { probeMedia } from "../../../src/media/probe";
import { FramesPlanSchema, type FramesResult } from "../../../src/media-understanding/windows";
import { pacedAi } from "../../../src/ports/ai/model-calls";
import {
  ByteBudget,
  CUT_BYTES_IN_FLIGHT,
  cutPeakBytes,
} from "../../../src/ports/media-understanding/byte-budget";
import { R2FrameStore } from "../../../src/ports/media-understanding/frame-store";
import { WorkersAiMediaUnderstanding } from "../../../src/ports/media-understanding/workers-ai";
import { instantCalls } from "../../helpers/instant-calls";
import { fixtureBytes } from "../../helpers/media-fixtures";
import { bytesSource } from "../../helpers/media-sources";
import { understandInput } from "./probes";
import { RecordingAi, RecordingMedia } from "./recording-fakes";

const tick = (turns: number) => new Promise<void>((resolve) => setTimeout(resolve, turns));

/** Runs every request at once through one budget; records what was held whenever one started. */
async function runAll(limit: number, requests: readonly { bytes: number; turns: number }[]) {
  const budget = new ByteBudget(limit);
  let held = 0;
  let holders = 0;
  const starts: { index: number; held: number; holders: number }[] = [];
  await Promise.all(
    requests.map((request, index) =>
      budget.use(request.bytes, async () => {
        held += request.bytes;
        holders++;
        starts.push({ index, held, holders });
        await tick(request.turns);
        held -= request.bytes;
        holders--;
      }),
    ),
  );
  return { budget, starts };
}

describe("the byte budget of cuts in flight", () => {
  it("never holds more than its limit, unless one request alone is larger, and serves in order", async () => {
    const request = fc.record({ bytes: fc.integer({ min: 0, max: 150 }), turns: fc.nat(3) });
    await fc.assert(
      fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 25 }), async (requests) => {
        const { budget, starts } = await runAll(100, requests);
        expect(starts).toHaveLength(requests.length);
        // What is held only grows when a request starts, so its peaks are all among these.
        for (const start of starts) {
          expect(start.held <= 100 || start.holders === 1, JSON.stringify(start)).toBe(true);
        }
        expect(starts.map((s) => s.index)).toEqual(requests.map((_, i) => i));
        expect(budget.inUse).toBe(0);
      }),
      { numRuns: 60 },
    );
  });

  it("lets a request larger than the whole budget run alone once the others are done", async () => {
    const { starts } = await runAll(100, [
      { bytes: 40, turns: 2 },
      { bytes: 250, turns: 2 },
      { bytes: 10, turns: 0 },
    ]);
    expect(starts).toEqual([
      { index: 0, held: 40, holders: 1 },
      { index: 1, held: 250, holders: 1 },
      { index: 2, held: 10, holders: 1 },
    ]);
  });

  it("gives its bytes back when the work fails", async () => {
    const budget = new ByteBudget(100);
    await expect(budget.use(80, () => Promise.reject(new Error("edge down")))).rejects.toThrow(
      "edge down",
    );
    expect(budget.inUse).toBe(0);
    expect(await budget.use(80, async () => budget.inUse)).toBe(80);
  });

  it("holds a frames window's cuts within the engine's budget, at their peaks, while they are extracted", async () => {
    const source = bytesSource(fixtureBytes("talk.mp4"));
    const probe = await probeMedia(source, { filename: "talk.mp4", contentType: "video/mp4" });
    const input = understandInput(probe, { filename: "talk.mp4", source });
    const look = async (limit: number) => {
      const media = new RecordingMedia();
      const engine = new WorkersAiMediaUnderstanding({
        ai: pacedAi(new RecordingAi(), instantCalls()),
        media,
        frames: new R2FrameStore(env.MEDIA_BUCKET),
        cutBudget: new ByteBudget(limit),
      });
      const window = engine.plan(input).find((w) => w.kind === "frames");
      if (!window) throw new Error("talk.mp4 has no frames window");
      const plan = FramesPlanSchema.parse(window.plan);
      const seen = (await engine.understandWindow(input, window)) as FramesResult;
      return { media, plan, seen: seen.frames.length, notes: seen.notes };
    };
    // A budget no cut's peak fits: no cut is made, and the frames are named, not seen.
    const tight = await look(1);
    expect(tight.media.calls).toHaveLength(0);
    expect(tight.seen).toBe(0);
    expect(tight.notes).toEqual(["frame-extraction-failed", "frame-too-large"]);
    // A budget of the largest cut's peak: each cut is made alone, and every frame is seen.
    const cutter = openCutter(source, "videos/vid_talk/original");
    const limits = { maxOffset: 30, maxBytes: 100e6 };
    const spans = await Promise.all(tight.plan.cells.map((c) => cutter.frameSpan(c.at, limits)));
    const peaks = spans.map((span) => cutPeakBytes(span?.bytes ?? 0));
    // No two of talk.mp4's cuts fit beside each other in the largest one's peak.
    expect(2 * Math.min(...peaks)).toBeGreaterThan(Math.max(...peaks));
    const alone = await look(Math.max(...peaks));
    expect(alone.media.maxInFlight).toBe(1);
    expect(alone.seen).toBe(alone.plan.cells.length);
    // The default share of memory holds these small cuts side by side (four at a time).
    const roomy = await look(CUT_BYTES_IN_FLIGHT);
    expect(roomy.media.maxInFlight).toBe(4);
    expect(roomy.seen).toBe(roomy.plan.cells.length);
  });
});
