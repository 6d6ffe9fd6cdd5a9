import { describe, expect, it } from "vitest";
import { probeMedia } from "../../../src/media/probe";
import { fixtureBytes, type MediaFixture } from "../../helpers/media-fixtures";
import { bytesSource, countingSource } from "../../helpers/media-sources";

// MP4/MOV probing against the committed fixtures; test/fixtures/media/README.md lists the values.

async function probeFixture(name: MediaFixture) {
  const bytes = fixtureBytes(name);
  const source = countingSource(bytesSource(bytes));
  const probe = await probeMedia(source, { filename: name, contentType: "video/mp4" });
  return { probe, log: source.log, size: bytes.length };
}

/** Key frames every 2 s from `offset`, as the fixtures were encoded (-g 50 at 25 fps). */
function everyTwoSeconds(count: number, offset = 0): number[] {
  return Array.from({ length: count }, (_, i) => Math.round((offset + i * 2) * 1e6) / 1e6);
}

describe("probeMedia on MP4 and MOV", () => {
  it("measures talk.mp4: streams, key frames, mov_text cues, tags and cover art", async () => {
    const { probe } = await probeFixture("talk.mp4");

    expect(probe.container).toBe("mp4");
    expect(probe.duration).toBeCloseTo(24, 2);
    expect(probe.video).toEqual({
      codec: "avc",
      width: 160,
      height: 90,
      rotation: 0,
      frameCount: 600,
      fps: 25,
    });
    expect(probe.audio).toEqual({ codec: "aac", channels: 2, sampleRate: 44100 });
    expect(probe.keyframes).toEqual(everyTwoSeconds(12));
    expect(probe.textTracks).toEqual([
      {
        index: 0,
        codec: "tx3g",
        language: "eng",
        name: "Safety talk captions",
        cues: [
          { start: 1, end: 4, text: "Welcome to the warehouse safety briefing." },
          { start: 5, end: 8.5, text: "Forklift operators must wear high visibility vests." },
          { start: 9, end: 12, text: "The loading dock closes at six pm." },
          {
            start: 13,
            end: 16.5,
            text: "Report every spill\nto the shift supervisor immediately.",
          },
          { start: 17, end: 20, text: "Keep fire exits clear of pallets at all times." },
          { start: 21, end: 23.5, text: "Thank you and stay safe." },
        ],
      },
    ]);
    expect(probe.tags).toEqual({
      title: "Warehouse safety briefing",
      description: "Weekly safety talk for the loading dock crew",
      comment: "Recorded for onboarding",
      keywords: ["safety", "forklift", "warehouse"],
      artist: "Dana Okafor",
      date: "2024-03-18",
      other: {},
    });
    expect(probe.coverArt?.contentType).toBe("image/png");
    expect(probe.coverArt?.bytes.length).toBe(210);
    expect([...(probe.coverArt?.bytes.subarray(0, 4) ?? [])]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  });

  it("reads only the index and the cue samples of talk.mp4, never its media data", async () => {
    const { log, size } = await probeFixture("talk.mp4");

    // moov is 22 KiB; it is read twice (own text reader, mediabunny) plus six ~50-byte cues.
    expect(log.bytes, JSON.stringify(log.ranges)).toBeLessThan(80 * 1024);
    expect(log.bytes).toBeLessThan(size / 3);
    expect(log.calls).toBeLessThan(20);
  });

  it("finds moov after mdat in moov-at-end.mov, with its QuickTime text track and rotation", async () => {
    const { probe } = await probeFixture("moov-at-end.mov");

    expect(probe.container).toBe("mov");
    expect(probe.duration).toBeCloseTo(12, 2);
    expect(probe.video).toEqual({
      codec: "avc",
      width: 160,
      height: 90,
      rotation: 90,
      frameCount: 300,
      fps: 25,
    });
    expect(probe.audio).toEqual({ codec: "aac", channels: 1, sampleRate: 22050 });
    expect(probe.keyframes).toEqual(everyTwoSeconds(6));
    // QuickTime mode marks the language "unspecified", so none is reported.
    expect(probe.textTracks).toEqual([
      {
        index: 0,
        codec: "text",
        cues: [
          { start: 0.5, end: 3, text: "Night shift handover starts at ten pm." },
          { start: 4, end: 7, text: "Check the freezer thermometer log." },
          { start: 8, end: 11, text: "Lock the cage before leaving." },
        ],
      },
    ]);
    expect(probe.tags).toEqual({ title: "Night shift handover", keywords: [], other: {} });
    expect(probe.coverArt).toBeNull();
  });

  it("invents nothing for silent.mp4: no audio, no text, no tags, no cover", async () => {
    const { probe } = await probeFixture("silent.mp4");

    expect(probe).toEqual({
      container: "mp4",
      duration: 6,
      video: { codec: "avc", width: 160, height: 90, rotation: 0, frameCount: 150, fps: 25 },
      audio: null,
      keyframes: everyTwoSeconds(3),
      textTracks: [],
      tags: { keywords: [], other: {} },
      coverArt: null,
    });
  });

  it("measures minute.mp4: 60 s, 1500 frames, six cues ten seconds apart", async () => {
    const { probe, log, size } = await probeFixture("minute.mp4");

    expect(probe.duration).toBeCloseTo(60, 2);
    expect(probe.video?.frameCount).toBe(1500);
    expect(probe.video?.fps).toBe(25);
    expect(probe.audio).toEqual({ codec: "aac", channels: 1, sampleRate: 22050 });
    expect(probe.keyframes).toEqual(everyTwoSeconds(30));
    expect(probe.tags.title).toBe("Quarterly inventory count");
    const [track] = probe.textTracks;
    expect(track?.language).toBe("eng");
    expect(track?.cues.map((cue) => [cue.start, cue.end])).toEqual([
      [2, 8],
      [12, 18],
      [22, 28],
      [32, 38],
      [42, 48],
      [52, 58],
    ]);
    expect(track?.cues[3]?.text).toBe("Recount any bin that differs by more than two units.");
    expect(log.bytes).toBeLessThan(size / 4);
  });

  it("ignores junk some recorders leave after the last box", async () => {
    const talk = fixtureBytes("talk.mp4");
    const padded = new Uint8Array(talk.length + 64).fill(0xff);
    padded.set(talk);

    const probe = await probeMedia(bytesSource(padded), { filename: "a.mp4", contentType: "" });

    expect(probe.video?.frameCount).toBe(600);
    expect(probe.textTracks[0]?.cues).toHaveLength(6);
  });

  it("calls a file with an M4V brand or extension m4v", async () => {
    const bytes = fixtureBytes("silent.mp4");
    const probe = await probeMedia(bytesSource(bytes), {
      filename: "clip.m4v",
      contentType: "video/x-m4v",
    });
    expect(probe.container).toBe("m4v");

    // The major brand sits at bytes 8..12 of ftyp.
    bytes.set([0x4d, 0x34, 0x56, 0x20], 8);
    const branded = await probeMedia(bytesSource(bytes), {
      filename: "clip.mp4",
      contentType: "video/mp4",
    });
    expect(branded.container).toBe("m4v");
  });
});
