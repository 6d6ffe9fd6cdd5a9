import { describe, expect, it } from "vitest";
import { probeMedia } from "../../../src/media/probe";
import { type BigMp4Options, bigMp4Chunks, bigMp4Source } from "../../helpers/big-mp4";
import { fixtureBytes } from "../../helpers/media-fixtures";
import {
  bytesSource,
  countingSource,
  type FilePart,
  partsSource,
} from "../../helpers/media-sources";

// Probing cost must not grow with the file: a 2 GiB (or 5 GiB) MP4 made of a small real video
// and a huge padding box is served by ranges without being allocated, and every byte the probe
// reads is counted.

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

async function probeBig(size: number, options: BigMp4Options) {
  const source = countingSource(bigMp4Source(size, options));
  const probe = await probeMedia(source, { filename: "big.mp4", contentType: "video/mp4" });
  return { probe, log: source.log };
}

/**
 * subtitles.mkv grown to `size` by a Void element at the end of its Segment (whose 8-byte size
 * field is rewritten to match): a valid Matroska file whose tail is never worth reading.
 */
function bigMkvParts(size: number): FilePart[] {
  const mkv = fixtureBytes("subtitles.mkv");
  const view = new DataView(mkv.buffer, mkv.byteOffset, mkv.byteLength);
  // ffmpeg writes a 1-byte EBML header size and an 8-byte Segment size (0x01 marker).
  const segmentAt = 5 + (view.getUint8(4) & 0x7f);
  if (view.getUint32(segmentAt) !== 0x18538067 || view.getUint8(segmentAt + 4) !== 0x01) {
    throw new Error("subtitles.mkv no longer has the layout this helper expects");
  }
  const padding = size - mkv.length;
  const marker = 0x01n << 56n;
  const segmentSize = view.getBigUint64(segmentAt + 4) - marker;
  view.setBigUint64(segmentAt + 4, segmentSize + BigInt(padding) + marker);
  const voidHeader = new Uint8Array(9);
  voidHeader[0] = 0xec;
  new DataView(voidHeader.buffer).setBigUint64(1, BigInt(padding - 9) + marker);
  return [mkv, voidHeader, { zeros: padding - 9 }];
}

async function probeSmall(name: "talk.mp4" | "moov-at-end.mov") {
  return probeMedia(bytesSource(fixtureBytes(name)), { filename: "big.mp4", contentType: "" });
}

describe("probeMedia on multi-GiB files", () => {
  it("probes a 2 GiB MP4 (moov first, 2 GiB free box after) reading under 2 MiB", async () => {
    const { probe, log } = await probeBig(2 * GiB, { moov: "first" });

    expect(probe).toEqual(await probeSmall("talk.mp4"));
    expect(log.bytes, JSON.stringify(log.ranges)).toBeLessThan(2 * MiB);
    expect(log.calls).toBeLessThan(30);
  });

  it("probes a 2 GiB MOV whose moov sits after a 2 GiB free box, reading under 2 MiB", async () => {
    const { probe, log } = await probeBig(2 * GiB, { moov: "last" });

    expect(probe).toEqual(await probeSmall("moov-at-end.mov"));
    expect(probe.textTracks[0]?.cues).toHaveLength(3);
    expect(log.bytes, JSON.stringify(log.ranges)).toBeLessThan(2 * MiB);
  });

  it("reads the same amount for 10 MiB and 2 GiB: the cost is flat in the file size", async () => {
    for (const moov of ["first", "last"] as const) {
      const small = await probeBig(10 * MiB, { moov });
      const large = await probeBig(2 * GiB, { moov });

      expect(large.probe).toEqual(small.probe);
      expect(large.log.bytes, moov).toBe(small.log.bytes);
      expect(large.log.calls, moov).toBe(small.log.calls);
    }
  });

  it("handles 64-bit largesize boxes: a 5 GiB file with a free box or a second mdat", async () => {
    for (const options of [
      { moov: "first", paddingType: "free" },
      { moov: "last", paddingType: "free" },
      { moov: "first", paddingType: "mdat" },
      { moov: "last", paddingType: "mdat" },
    ] satisfies BigMp4Options[]) {
      const { probe, log } = await probeBig(5 * GiB, options);

      expect(probe.video?.frameCount, JSON.stringify(options)).toBe(
        options.moov === "first" ? 600 : 300,
      );
      expect(probe.textTracks[0]?.cues.length).toBeGreaterThan(0);
      expect(log.bytes).toBeLessThan(2 * MiB);
    }
  });

  it("reads the same amount for a 10 MiB and a 2 GiB Matroska file", async () => {
    const reads = [];
    for (const size of [10 * MiB, 2 * GiB]) {
      const source = countingSource(partsSource(bigMkvParts(size)));
      const probe = await probeMedia(source, { filename: "big.mkv", contentType: "" });
      expect(probe.textTracks.map((track) => track.cues.length)).toEqual([3, 3]);
      expect(probe.duration).toBeCloseTo(15.032, 2);
      reads.push(source.log);
    }

    expect(reads[1]?.bytes).toBe(reads[0]?.bytes);
    expect(reads[1]?.bytes).toBeLessThan(2 * MiB);
    expect(reads[1]?.largestRead).toBeLessThanOrEqual(128 * 1024);
  });

  it("streams the same layout as chunks of at most 1 MiB that add up to the size", () => {
    let total = 0;
    let largest = 0;
    let head = new Uint8Array(0);
    for (const chunk of bigMp4Chunks(300 * MiB, { moov: "first" })) {
      if (total === 0) head = chunk.slice(0, 8);
      total += chunk.length;
      largest = Math.max(largest, chunk.length);
    }

    expect(total).toBe(300 * MiB);
    expect(largest).toBeLessThanOrEqual(MiB);
    expect(String.fromCharCode(...head.subarray(4, 8))).toBe("ftyp");
  });
});
