import {
  ALL_FORMATS,
  BufferSource,
  BufferTarget,
  EncodedAudioPacketSource,
  EncodedPacketSink,
  EncodedVideoPacketSource,
  Input,
  Mp4OutputFormat,
  Output,
} from "mediabunny";
import { describe, expect, it } from "vitest";
import { readBmffIndex } from "../../../src/media/bmff-samples";
import { expectSameAsMediabunny } from "../../helpers/bmff-parity";
import { expectSampledSameAsMediabunny } from "../../helpers/bmff-parity-sampled";
import { rewriteTables } from "../../helpers/bmff-rewrite";
import { writePlan } from "../../helpers/generated-mp4";
import { longMp4 } from "../../helpers/long-mp4";
import { fixtureBytes, type MediaFixture } from "../../helpers/media-fixtures";
import { bytesSource } from "../../helpers/media-sources";

// The sample index stands in for mediabunny's MP4 reader on files whose tables are too big to
// expand: whatever mediabunny would hand a decoder, the index must hand it too.

/** Each MP4/MOV fixture and the tracks compared in it (see test/fixtures/media/README.md). */
const MP4_FIXTURES: [MediaFixture, { codec: string; packets: number }[]][] = [
  ["audio-only.mp4", [{ codec: "aac", packets: 66 }]],
  [
    "minute.mp4",
    [
      { codec: "avc", packets: 1500 },
      { codec: "aac", packets: 1293 },
    ],
  ],
  [
    "moov-at-end.mov",
    [
      { codec: "avc", packets: 300 },
      { codec: "aac", packets: 260 },
    ],
  ],
  ["silent.mp4", [{ codec: "avc", packets: 150 }]],
  [
    "talk.mp4",
    [
      { codec: "avc", packets: 600 },
      { codec: "aac", packets: 1035 },
    ],
  ],
];

describe("SampleIndex on the MP4 and MOV fixtures", () => {
  it.each(MP4_FIXTURES)("reads %s as mediabunny does", async (name, tracks) => {
    const coverage = await expectSameAsMediabunny(fixtureBytes(name));
    expect(coverage).toMatchObject(tracks);
    // x264 reorders frames (B-frames): every video track has composition offsets.
    for (const track of coverage.filter(({ codec }) => codec === "avc")) {
      expect(track.offsetRuns).toBeGreaterThan(0);
    }
  });
});

describe("SampleIndex on composition offsets the muxer never writes", () => {
  // mediabunny reads PCM a chunk a packet only without a ctts; with one, sample by sample.
  it.each([
    ["PCM", "pcm-s16", 8, 3],
    ["PCM shown early", "pcm-u8", 8, -2],
    ["AAC shown early", "aac", 22_050, -1024],
  ] as const)("reads %s with a ctts as mediabunny does", async (_, codec, sampleRate, offset) => {
    const audio = {
      frames: [10, 7, 12, 9],
      start: 0,
      codec,
      sampleRate,
      channels: 1,
      config: codec === "aac" ? await aacConfig() : null,
    };
    const plain = await writePlan({ container: "mov", fastStart: false, video: null, audio });
    const bytes = rewriteTables(plain, { co64: false, stz2Bits: 0, cttsOffset: offset });
    const coverage = await expectSameAsMediabunny(bytes);
    expect(coverage).toMatchObject([{ codec, offsetRuns: 1, packets: codec === "aac" ? 4 : 38 }]);
  });
});

describe("SampleIndex on a 30-minute MP4 whose tables span many 48 KiB pages", () => {
  // 54,000 frames and 84,375 AAC packets: stsz, ctts, stss and stco are read a page at a time.
  it.each([
    ["moov at the end", { hours: 0.5 }],
    ["moov first, 64-bit chunk offsets", { hours: 0.5, moovFirst: true, co64: true }],
    ["no B-frames", { hours: 0.5, bFrames: false, fps: 25, gopFrames: 50 }],
  ] as const)("agrees with mediabunny at random times (%s)", async (_, options) => {
    const film = await longMp4(options);
    await expectSampledSameAsMediabunny(film, { seeks: 200, run: 12, seed: 17 });
  });
});

describe("readBmffIndex", () => {
  it("finds no index in a fragmented MP4, whose samples lie in its fragments", async () => {
    const bytes = await fragmentedCopy(fixtureBytes("talk.mp4"));
    expect(topLevelBoxes(bytes)).toContain("moof");
    expect(await readBmffIndex(bytesSource(bytes))).toBeNull();
  });

  it("refuses a file whose moov is cut short", async () => {
    await expect(readBmffIndex(bytesSource(fixtureBytes("corrupt.mp4")))).rejects.toThrow(
      RangeError,
    );
  });

  it("keeps a few KB of headers, not the sample tables", async () => {
    const bytes = fixtureBytes("minute.mp4");
    const index = await readBmffIndex(bytesSource(bytes));
    expect(index?.headers.length).toBeLessThan(4 * 1024);
  });
});

async function aacConfig(): Promise<AudioDecoderConfig> {
  const input = new Input({
    formats: ALL_FORMATS,
    source: new BufferSource(fixtureBytes("audio-only.mp4")),
  });
  const config = await (await input.getPrimaryAudioTrack())?.getDecoderConfig();
  if (!config) throw new Error("audio-only.mp4 lost its decoder config.");
  return config;
}

/** The fixture's packets written again as a fragmented MP4 (moof + mdat pairs). */
async function fragmentedCopy(fixture: Uint8Array): Promise<Uint8Array> {
  const input = new Input({ formats: ALL_FORMATS, source: new BufferSource(fixture) });
  const target = new BufferTarget();
  const output = new Output({ format: new Mp4OutputFormat({ fastStart: "fragmented" }), target });
  const video = await input.getPrimaryVideoTrack();
  const audio = await input.getPrimaryAudioTrack();
  const videoOut = new EncodedVideoPacketSource("avc");
  const audioOut = new EncodedAudioPacketSource("aac");
  output.addVideoTrack(videoOut);
  output.addAudioTrack(audioOut);
  await output.start();
  if (video === null || audio === null) throw new Error("The fixture has no video or audio.");
  const videoConfig = await video.getDecoderConfig();
  const audioConfig = await audio.getDecoderConfig();
  let first = true;
  for await (const packet of new EncodedPacketSink(video).packets()) {
    await videoOut.add(packet, first && videoConfig ? { decoderConfig: videoConfig } : undefined);
    first = false;
  }
  first = true;
  for await (const packet of new EncodedPacketSink(audio).packets()) {
    await audioOut.add(packet, first && audioConfig ? { decoderConfig: audioConfig } : undefined);
    first = false;
  }
  await output.finalize();
  input.dispose();
  return new Uint8Array(target.buffer ?? new ArrayBuffer(0));
}

/** The types of a file's top-level boxes, in order. */
function topLevelBoxes(bytes: Uint8Array): string[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const types: string[] = [];
  for (let at = 0; at + 8 <= bytes.length; ) {
    const size = view.getUint32(at);
    types.push(String.fromCharCode(...bytes.subarray(at + 4, at + 8)));
    if (size < 8) break;
    at += size;
  }
  return types;
}
