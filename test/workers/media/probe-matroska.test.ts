import { describe, expect, it } from "vitest";
import { probeMedia } from "../../../src/media/probe";
import { fixtureBytes, type MediaFixture } from "../../helpers/media-fixtures";
import { bytesSource, countingSource } from "../../helpers/media-sources";

// WebM/MKV probing against the committed fixtures; test/fixtures/media/README.md lists the values.

async function probeFixture(name: MediaFixture) {
  const source = countingSource(bytesSource(fixtureBytes(name)));
  const probe = await probeMedia(source, { filename: name, contentType: "video/x-matroska" });
  return { probe, log: source.log };
}

const REPAIR_SRT = [
  { start: 1.032, end: 4.032, text: "Loosen the axle nuts with a fifteen millimetre spanner." },
  { start: 5.032, end: 8.032, text: "Lever the tyre off the rim carefully." },
  { start: 9.032, end: 12.032, text: "Inflate the inner tube to find the puncture." },
];

const REPAIR_ASS = [
  { start: 2.032, end: 5.032, text: "Patch kits need clean, dry rubber." },
  { start: 6.032, end: 9.532, text: "Sand around the puncture, then spread glue." },
  { start: 10.032, end: 13.032, text: "Wait two minutes,\nthen press the patch." },
];

const REPAIR_TAGS = {
  title: "Fixing a bicycle puncture",
  description: "Roadside puncture repair in three steps",
  comment: "Filmed in the workshop",
  keywords: ["bicycle", "repair", "puncture"],
  artist: "Sam Rivera",
  date: "2023-09-02",
  other: {},
};

describe("probeMedia on WebM and Matroska", () => {
  it("measures captions.webm: VP9 + Opus, WebVTT cues and the Segment title", async () => {
    const { probe } = await probeFixture("captions.webm");

    expect(probe.container).toBe("webm");
    expect(probe.duration).toBeCloseTo(15.007, 2);
    expect(probe.video).toEqual({
      codec: "vp9",
      width: 160,
      height: 90,
      rotation: 0,
      frameCount: 375,
      fps: 25,
    });
    expect(probe.audio).toEqual({ codec: "opus", channels: 1, sampleRate: 48000 });
    // The WebM starts at 0.007 s (Opus pre-skip), and so does every time in it.
    expect(probe.keyframes).toEqual([0.007, 2.007, 4.007, 6.007, 8.007, 10.007, 12.007, 14.007]);
    expect(probe.textTracks).toEqual([
      {
        index: 0,
        codec: "webvtt",
        language: "eng",
        cues: [
          { start: 1.007, end: 3.507, text: "Preheat the oven to two hundred degrees." },
          { start: 4.007, end: 7.007, text: "Whisk the eggs with a pinch of saffron." },
          { start: 8.007, end: 11.007, text: "Fold the batter gently into the tin." },
          { start: 12.007, end: 14.507, text: "Bake for twenty five minutes until golden." },
        ],
      },
    ]);
    expect(probe.tags).toEqual({ title: "Saffron sponge cake demo", keywords: [], other: {} });
    expect(probe.coverArt).toBeNull();
  });

  it("measures subtitles.mkv: SRT and ASS tracks, Matroska tags and the cover attachment", async () => {
    const { probe } = await probeFixture("subtitles.mkv");

    expect(probe.container).toBe("mkv");
    expect(probe.duration).toBeCloseTo(15.032, 2);
    expect(probe.video).toEqual({
      codec: "avc",
      width: 160,
      height: 90,
      rotation: 0,
      frameCount: 375,
      fps: 25,
    });
    expect(probe.audio).toEqual({ codec: "aac", channels: 1, sampleRate: 32000 });
    expect(probe.keyframes).toEqual([0.032, 2.032, 4.032, 6.032, 8.032, 10.032, 12.032, 14.032]);
    expect(probe.textTracks).toEqual([
      { index: 0, codec: "srt", language: "eng", name: "English", cues: REPAIR_SRT },
      { index: 1, codec: "ass", language: "eng", name: "Styled notes", cues: REPAIR_ASS },
    ]);
    expect(probe.tags).toEqual(REPAIR_TAGS);
    expect(probe.coverArt?.contentType).toBe("image/jpeg");
    expect(probe.coverArt?.bytes.length).toBe(363);
    expect([...(probe.coverArt?.bytes.subarray(0, 3) ?? [])]).toEqual([0xff, 0xd8, 0xff]);
  });

  it("inflates zlib-compressed subtitle tracks (mkvmerge remux of subtitles.mkv)", async () => {
    const { probe } = await probeFixture("zlib-subtitles.mkv");

    expect(probe.container).toBe("mkv");
    expect(probe.video?.frameCount).toBe(375);
    expect(probe.textTracks.map((track) => track.cues)).toEqual([REPAIR_SRT, REPAIR_ASS]);
    expect(probe.textTracks.map((track) => track.name)).toEqual(["English", "Styled notes"]);
    expect(probe.tags).toEqual(REPAIR_TAGS);
    expect(probe.coverArt?.bytes.length).toBe(363);
  });

  it("reads a Matroska file in bounded pieces, never the whole file at once", async () => {
    const { log } = await probeFixture("subtitles.mkv");

    // The cluster walk uses 64 KiB windows; mediabunny reads one cluster at a time.
    expect(log.largestRead, JSON.stringify(log.ranges)).toBeLessThanOrEqual(128 * 1024);
  });
});
