import { describe, expect, it } from "vitest";
import { probeMedia } from "../../../src/media/probe";
import { MAX_SEQUENTIAL_WINDOW_BYTES } from "../../../src/media/read-budget";
import { bigMp4Source } from "../../helpers/big-mp4";
import { longSubtitledMkv } from "../../helpers/long-mkv";
import { countingR2Source, partsSource } from "../../helpers/media-sources";

// Every R2 read is a subrequest of the processing invocation, and production allows 1,000
// per invocation. These files are synthetic and sparse (their video is runs of zeros that are
// never allocated), so a 2-hour film or a 10 GiB upload costs the test only what it reads.

const GiB = 1024 ** 3;
const SUBREQUEST_LIMIT = 1000;

async function probeCounted(file: ReturnType<typeof partsSource>, filename: string) {
  const source = countingR2Source(file);
  const probe = await probeMedia(source, { filename, contentType: "" });
  return { probe, log: source.log };
}

describe("R2 reads of probing a long or large file", () => {
  it("reads a 2-hour subtitled Matroska film without Cues in under 1,000 gets", async () => {
    const file = partsSource(
      longSubtitledMkv({ seconds: 7200, clusterSeconds: 5, videoBytesPerCluster: 1024 * 1024 }),
    );
    const { probe, log } = await probeCounted(file, "film.mkv");

    expect(probe.duration).toBeGreaterThan(7190);
    expect(probe.keyframes).toHaveLength(1440);
    const cues = probe.textTracks[0]?.cues ?? [];
    expect(cues).toHaveLength(1440);
    expect(cues.at(-1)).toMatchObject({ start: 7195, text: "Line spoken at second 7195" });
    // Measured: 246 gets; one pass over the 1.5 GB file in windows of up to size / 256.
    expect(log.gets, JSON.stringify(log)).toBeLessThan(300);
  }, 60_000);

  it("reads a 10 GiB subtitled Matroska film with a cue every 4 s in bounded gets", async () => {
    const videoBytesPerCluster = Math.floor((10 * GiB) / 1800);
    const file = partsSource(
      longSubtitledMkv({ seconds: 7200, clusterSeconds: 4, videoBytesPerCluster }),
    );
    const { probe, log } = await probeCounted(file, "film.mkv");

    expect(file.size).toBeGreaterThan(10 * GiB);
    expect(probe.textTracks[0]?.cues).toHaveLength(1800);
    // Measured: 308 gets; the window stops growing at 32 MiB, a small share of 128 MB.
    expect(log.gets, JSON.stringify(log)).toBeLessThan(SUBREQUEST_LIMIT / 2);
    expect(log.largestGet).toBeLessThanOrEqual(MAX_SEQUENTIAL_WINDOW_BYTES);
  }, 60_000);

  it("reads a 10 GiB MP4 whose moov follows the media data in a few gets", async () => {
    const { probe, log } = await probeCounted(bigMp4Source(10 * GiB, { moov: "last" }), "a.mov");

    expect(probe.textTracks[0]?.cues).toHaveLength(3);
    expect(log.gets, JSON.stringify(log)).toBeLessThan(30);
  });
});
