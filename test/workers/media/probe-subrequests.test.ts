import { describe, expect, it } from "vitest";
import { probeMedia } from "../../../src/services/media/probe";
import { r2RangeSource } from "../../../src/services/media/r2-source";
import { longSubtitledMkv } from "../../helpers/long-mkv";
import { partsSize, partsSource } from "../../helpers/media-sources";

/** Probes parts through the production R2 range source, counting its `get`s (subrequests). */
async function probeCountingGets(parts: ReturnType<typeof longSubtitledMkv>) {
  const file = partsSource(parts);
  const read = { gets: 0, bytes: 0 };
  const bucket = {
    async get(_key: string, options: { range: { offset: number; length: number } }) {
      read.gets++;
      read.bytes += options.range.length;
      const { offset, length } = options.range;
      const bytes = await file.read(offset, offset + length);
      return { arrayBuffer: async () => bytes.buffer as ArrayBuffer };
    },
  };
  const source = r2RangeSource(bucket, "videos/vid_test/original", partsSize(parts));
  const probe = await probeMedia(source, { filename: "film.mkv", contentType: "video/x-matroska" });
  return { probe, read };
}

// Every R2 read is a subrequest of the processing invocation. A film interleaves its cues with
// megabytes of video, so the probe's cost grows with its clusters: measured here at one get per
// cluster for the subtitle walk and two for mediabunny's packet scan (which also reads every
// packet's bytes). docs/decisions.md ("Subrequests per invocation") has the numbers and what
// keeping a 2-hour film under 1,000 subrequests needs; this bound keeps it from getting worse
// meanwhile.
describe("subrequests of probing a long file", () => {
  it("reads a 2-hour subtitled Matroska file in at most three R2 gets per cluster", async () => {
    const clusters = 1440;
    const parts = longSubtitledMkv({
      seconds: 7200,
      clusterSeconds: 5,
      videoBytesPerCluster: 1024 * 1024,
    });
    const { probe, read } = await probeCountingGets(parts);
    expect(probe.duration).toBeGreaterThan(7190);
    expect(probe.textTracks[0]?.cues).toHaveLength(clusters);
    expect(read.gets, JSON.stringify(read)).toBeLessThanOrEqual(3 * clusters + 10);
  }, 120_000);
});
