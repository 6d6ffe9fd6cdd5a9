import { afterEach, describe, expect, it, vi } from "vitest";
import type { ClusterIndex, RangeSource } from "../../../src/domain/media";
import { decodeClusterIndex, encodeClusterIndex } from "../../../src/media/cluster-index";
import { type Cutter, openCutter } from "../../../src/media/cut";
import { probeMedia } from "../../../src/media/probe";
import { longMkvVideo } from "../../helpers/long-mkv-video";
import { countingR2Source } from "../../helpers/media-sources";
import { CUTTER_BOUND_MB, HOUR, MB, retainedMb } from "./memory";

const hints = { filename: "long.mkv", contentType: "video/x-matroska" };

/** An audio and a frames cut at `time`, with their bytes. */
async function cutAt(cutter: Cutter, time: number) {
  const audio = await cutter.audio(time, time + 60);
  const frame = await cutter.frame(time + 30, { maxOffset: 30, maxBytes: 100e6 });
  return {
    audio: audio && { start: audio.start, end: audio.end, bytes: audio.bytes },
    frame: frame && { time: frame.time, offset: frame.offset, bytes: frame.bytes },
  };
}

/** The index a probe found, as the cutter reads it back from storage. */
async function indexOf(source: RangeSource): Promise<ClusterIndex | null> {
  const { clusterIndex } = await probeMedia(source, hints);
  if (!clusterIndex) return null;
  const bytes = encodeClusterIndex(clusterIndex);
  return decodeClusterIndex(bytes.slice().buffer);
}

describe("the probe of a Matroska file", () => {
  it("keeps where each Cluster starts only when the file has no Cues", async () => {
    const without = await probeMedia(await longMkvVideo({ hours: 0.1, cues: false }), hints);
    // A Cluster every 2 s: 6 minutes is 180 of them, the first at time 0.
    expect(without.clusterIndex?.ticks.length).toBe(180);
    expect(without.clusterIndex?.ticks[179]).toBe(358_000);
    expect(without.clusterIndex?.videoTrack).toBe(1);
    expect(without.clusterIndex?.otherTracks).toEqual([2]);
    // Each Cluster starts with a key frame.
    expect(without.clusterIndex?.keys.every((key) => key === 1)).toBe(true);
    const withCues = await probeMedia(await longMkvVideo({ hours: 0.1 }), hints);
    expect(withCues.clusterIndex).toBeUndefined();
  });

  it("keeps none when a SeekHead entry points past the first Cluster", async () => {
    const file = await longMkvVideo({ hours: 0.1, cues: false, tagsAtEnd: true });
    expect((await probeMedia(file, hints)).clusterIndex).toBeUndefined();
  });
});

describe("a Matroska file without Cues, cut through the probe's Cluster index", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([
    { kind: "an MKV", container: "mkv", live: false, keyEvery: 1 },
    { kind: "a live WebM (unknown sizes)", container: "webm", live: true, keyEvery: 1 },
    // As for GOPs longer than a Cluster: video cues only where the index marks a key frame.
    { kind: "video cues every fifth Cluster", container: "webm", live: false, keyEvery: 5 },
  ] as const)(
    "cuts the same audio and frames as without the index ($kind)",
    async ({ container, live, keyEvery }) => {
      // An MP4 cut carries the time it was written; the clock stands still so bytes compare.
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(new Date("2026-01-01T00:00:00Z"));
      const file = await longMkvVideo({ hours: 0.05, cues: false, live, container });
      const index = await indexOf(file);
      if (index === null) throw new Error("a file without Cues has an index");
      index.keys = index.keys.map((key, i) => (i % keyEvery === 0 ? key : 0));
      const plain = openCutter(file, "videos/vid_short/source");
      const indexed = openCutter(file, "videos/vid_short/source", async () => index);
      for (const time of [0, 61, 110]) {
        const expected = await cutAt(plain, time);
        expect(expected.audio?.bytes.length).toBeGreaterThan(0);
        expect(expected.frame?.bytes.length).toBeGreaterThan(0);
        expect(await cutAt(indexed, time)).toEqual(expected);
      }
      plain.dispose();
      indexed.dispose();
    },
  );

  it("cuts a 10-hour MKV 9 hours in with under 100 R2 gets, holding under 32 MB", async () => {
    const file = await longMkvVideo({ hours: 10, cues: false });
    const index = await indexOf(file);
    const source = countingR2Source(file);
    const before = retainedMb();
    const cutter = openCutter(source, "videos/vid_long/source", async () => index);
    const cuts = await cutAt(cutter, 9 * HOUR);
    const held = retainedMb() - before;
    expect(cuts.audio?.start).toBe(9 * HOUR);
    expect(cuts.frame?.time).toBe(9 * HOUR + 30);
    // Without the index these cuts read every Cluster before them: tens of thousands of gets.
    const read = `${source.log.gets} gets, ${(source.log.bytes / MB).toFixed(1)} MB`;
    expect(source.log.gets, read).toBeLessThan(100);
    // The inserted Cues (612 KB) and mediabunny's 18,000 cue points are most of what it holds.
    expect(held, `the cutter holds ${held.toFixed(1)} MB`).toBeLessThan(CUTTER_BOUND_MB);
    cutter.dispose();
  }, 180_000);
});
