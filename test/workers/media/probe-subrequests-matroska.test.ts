import { describe, expect, it } from "vitest";
import { probeMedia } from "../../../src/media/probe";
import { measureStreams } from "../../../src/media/streams";
import { loopVideo } from "../../helpers/long-video";
import { fixtureBytes } from "../../helpers/media-fixtures";
import { bytesSource, countingR2Source } from "../../helpers/media-sources";

// Real 2-hour Matroska and WebM films, looped from small fixtures by mediabunny, which writes
// a Cues index (the synthetic film in probe-subrequests.test.ts has none).

const CUES_ID = [0x1c, 0x53, 0xbb, 0x6b];

function hasCues(bytes: Uint8Array): boolean {
  for (let at = bytes.indexOf(CUES_ID[0] ?? 0); at !== -1; at = bytes.indexOf(0x1c, at + 1)) {
    if (CUES_ID.every((byte, i) => bytes[at + i] === byte)) return true;
  }
  return false;
}

async function probeCounted(bytes: Uint8Array, filename: string) {
  const source = countingR2Source(bytesSource(bytes));
  const probe = await probeMedia(source, { filename, contentType: "" });
  return { probe, log: source.log };
}

describe("R2 reads of probing a 2-hour Matroska or WebM film with Cues", () => {
  it("measures a 2-hour MKV as mediabunny's packet scan does, in under 100 gets", async () => {
    const mkv = await loopVideo(fixtureBytes("talk.mp4"), {
      loops: 300,
      container: "mkv",
      caption: (loop) => `Loop ${loop + 1}`,
    });
    expect(hasCues(mkv)).toBe(true);

    const { probe, log } = await probeCounted(mkv, "film.mkv");

    const scanned = await measureStreams(bytesSource(mkv));
    expect(probe.duration).toBeCloseTo(scanned.duration, 3);
    expect(probe.duration).toBeGreaterThan(7200);
    expect(probe.video).toEqual(scanned.video);
    expect(probe.keyframes).toEqual(scanned.keyframes);
    expect(probe.textTracks[0]?.cues.map((cue) => cue.text)).toEqual(
      Array.from({ length: 300 }, (_, i) => `Loop ${i + 1}`),
    );
    // Measured: 77 gets, one pass over the 77 MB file in windows of up to 1 MiB.
    expect(log.gets, JSON.stringify(log)).toBeLessThan(100);
  }, 60_000);

  it("reads a 2-hour WebM with WebVTT cues in under 100 gets", async () => {
    // captions.webm lasts 15 s: 480 loops make 2 hours.
    const webm = await loopVideo(fixtureBytes("captions.webm"), {
      loops: 480,
      container: "webm",
      caption: (loop) => `Loop ${loop + 1}`,
    });
    expect(hasCues(webm)).toBe(true);

    const { probe, log } = await probeCounted(webm, "film.webm");

    expect(probe.container).toBe("webm");
    expect(probe.duration).toBeGreaterThan(7200);
    expect(probe.textTracks[0]?.cues).toHaveLength(480);
    expect(log.gets, JSON.stringify(log)).toBeLessThan(100);
  }, 60_000);
});
