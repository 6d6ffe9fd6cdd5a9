import { describe, expect, it } from "vitest";
import { probeMedia } from "../../../src/media/probe";
import { loopVideo } from "../../helpers/long-video";
import { fixtureBytes } from "../../helpers/media-fixtures";
import { bytesSource } from "../../helpers/media-sources";

describe("probing an MP4's WebVTT track (wvtt)", () => {
  it("reads each cue with its own times and language, like a tx3g track", async () => {
    const bytes = await loopVideo(fixtureBytes("talk.mp4"), {
      loops: 3,
      caption: (loop) => `Loop ${loop + 1}: the crane hook latch is checked`,
    });
    const probe = await probeMedia(bytesSource(bytes), {
      filename: "loops.mp4",
      contentType: "video/mp4",
    });
    const webvtt = probe.textTracks.filter((t) => t.codec === "wvtt");
    expect(webvtt).toHaveLength(1);
    expect(webvtt[0]?.language).toBe("eng");
    expect(webvtt[0]?.cues.map((c) => c.text)).toEqual([
      "Loop 1: the crane hook latch is checked",
      "Loop 2: the crane hook latch is checked",
      "Loop 3: the crane hook latch is checked",
    ]);
    const [first, second] = webvtt[0]?.cues ?? [];
    expect(first?.start).toBeCloseTo(0.1, 2);
    expect(second?.start).toBeCloseTo(24.1, 1);
    expect((second?.start ?? 0) - (first?.end ?? 0)).toBeGreaterThan(0.1);
  });
});
