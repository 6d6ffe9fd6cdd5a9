import { beforeAll, describe, expect, it } from "vitest";
import type { MediaProbe, RangeSource } from "../../../src/domain/media";
import { probeMedia } from "../../../src/media/probe";
import { MAX_SEQUENTIAL_WINDOW_BYTES } from "../../../src/media/read-budget";
import { loopVideo } from "../../helpers/long-video";
import { fixtureBytes } from "../../helpers/media-fixtures";
import { bytesSource, countingR2Source, partsSource } from "../../helpers/media-sources";
import { spreadWebVttChunks } from "../../helpers/spread-mp4";

// A caption every few seconds lies far from the next one in `mdat`: read one by one, the cues
// of a 2-hour MP4 cost one R2 get (one subrequest) each, past production's 1,000.

const LOOPS = 300;
const CUES_PER_LOOP = 6;
const CUES = LOOPS * CUES_PER_LOOP;

let film: Uint8Array;

beforeAll(async () => {
  // talk.mp4 lasts about 24 s: 300 loops of it make 2 hours of real H.264/AAC.
  film = await loopVideo(fixtureBytes("talk.mp4"), {
    loops: LOOPS,
    caption: (loop, cue) => `Loop ${loop + 1}, line ${cue + 1}`,
    cuesPerLoop: CUES_PER_LOOP,
  });
}, 60_000);

async function probeCounted(file: RangeSource) {
  const source = countingR2Source(file);
  const probe = await probeMedia(source, { filename: "film.mp4", contentType: "video/mp4" });
  return { probe, log: source.log };
}

/** The looped captions, each with its text and times, in order. */
function expectEveryCue(probe: MediaProbe) {
  const cues = probe.textTracks.find((track) => track.codec === "wvtt")?.cues ?? [];
  expect(cues.map((cue) => cue.text)).toEqual(
    Array.from(
      { length: CUES },
      (_, i) => `Loop ${Math.floor(i / CUES_PER_LOOP) + 1}, line ${(i % CUES_PER_LOOP) + 1}`,
    ),
  );
  const each = probe.duration / CUES;
  for (const [i, cue] of cues.entries()) {
    expect(cue.start).toBeCloseTo(i * each + 0.1, 0);
    expect(cue.end - cue.start).toBeCloseTo(each - 0.2, 1);
  }
}

describe("R2 reads of probing a 2-hour MP4 with a WebVTT caption every 4 s", () => {
  it("reads every cue of a 76 MB film in under 100 gets", async () => {
    const { probe, log } = await probeCounted(bytesSource(film));

    expect(probe.duration).toBeGreaterThan(7200);
    expect(probe.video?.frameCount).toBe(LOOPS * 600);
    expectEveryCue(probe);
    // Measured: 65 gets (281 when each cue's 256 KiB window was its own read).
    expect(log.gets, JSON.stringify(log)).toBeLessThan(100);
  }, 60_000);

  it("reads every cue of a 1.5 GB film, captions 830 KB apart, in under 300 gets", async () => {
    const spread = partsSource(spreadWebVttChunks(film, 800 * 1024));
    const { probe, log } = await probeCounted(spread);

    expect(spread.size).toBeGreaterThan(1.4e9);
    expect(probe).toEqual(await probeMedia(bytesSource(film), { filename: "", contentType: "" }));
    expectEveryCue(probe);
    // Measured: 229 gets (1,805 when each cue was its own read), each at most size / 256.
    expect(log.gets, JSON.stringify(log)).toBeLessThan(300);
    expect(log.largestGet).toBeLessThanOrEqual(MAX_SEQUENTIAL_WINDOW_BYTES);
  }, 60_000);
});
