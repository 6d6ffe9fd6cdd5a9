import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ClusterIndex, RangeSource } from "../../../src/domain/media";
import { withClusterCues } from "../../../src/media/cluster-index";

/** A stand-in file: the Segment header at 40 (8-byte size), Clusters from 100, by their bytes. */
function file(size: number): { bytes: Uint8Array; source: RangeSource } {
  const bytes = Uint8Array.from({ length: size }, (_, i) => (i * 7 + 3) % 251);
  bytes.set([0x18, 0x53, 0x80, 0x67, 0x01, 0, 0, 0, 0, 0, 0, 0], 40);
  return { bytes, source: { size, read: async (start, end) => bytes.slice(start, end) } };
}

function indexOf(
  size: number,
  segmentSize: number | null,
  widthBytes = 8,
  keys = Uint8Array.of(1, 0, 1),
): ClusterIndex {
  return {
    videoTrack: 1,
    otherTracks: [2],
    segmentStart: 40,
    segmentDataStart: 44 + widthBytes,
    segmentSize,
    firstCluster: 100,
    ticks: Float64Array.of(0, 2000, 4000),
    offsets: Float64Array.of(100, Math.floor(size / 2), size - 50),
    // By default the middle Cluster holds no video key frame.
    keys,
  };
}

/** The inserted CuePoints as [time, track, position in the original file], in order. */
function cuePoints(whole: Uint8Array, inserted: number): [number, number, number][] {
  const view = new DataView(whole.buffer, whole.byteOffset);
  const cues: [number, number, number][] = [];
  for (let at = 112; at < 100 + inserted; ) {
    const end = at + 2 + ((whole[at + 1] ?? 0) & 0x7f);
    const time = Number(view.getBigUint64(at + 4));
    for (let track = at + 12; track < end; track += 22) {
      const position = Number(view.getBigUint64(track + 14));
      cues.push([time, Number(view.getBigUint64(track + 4)), position + 52 - inserted]);
    }
    at = end;
  }
  return cues;
}

describe("a Matroska file read with Cues inserted before its first Cluster", () => {
  it("reads any range as the whole virtual file has it", async () => {
    const size = 1000;
    const { source } = file(size);
    for (const segmentSize of [size - 52, null]) {
      const virtual = withClusterCues(source, indexOf(size, segmentSize));
      if (virtual === null) throw new Error("the 8-byte size field holds any size");
      const whole = await virtual.read(0, virtual.size);
      expect(whole.length).toBe(virtual.size);
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: virtual.size }),
          fc.integer({ min: 0, max: virtual.size }),
          async (a, b) => {
            const [start, end] = a <= b ? [a, b] : [b, a];
            expect(await virtual.read(start, end)).toEqual(whole.subarray(start, end));
          },
        ),
        { numRuns: 300 },
      );
    }
  });

  it("keeps the bytes around the Cues, grows the Segment size, and points cues at Clusters", async () => {
    const size = 1000;
    const { bytes, source } = file(size);
    const virtual = withClusterCues(source, indexOf(size, size - 52));
    if (virtual === null) throw new Error("the 8-byte size field holds any size");
    const inserted = virtual.size - size;
    const whole = await virtual.read(0, virtual.size);
    expect(whole.subarray(0, 44)).toEqual(bytes.subarray(0, 44));
    expect(whole.subarray(52, 100)).toEqual(bytes.subarray(52, 100));
    expect(whole.subarray(100 + inserted)).toEqual(bytes.subarray(100));
    const view = new DataView(whole.buffer, whole.byteOffset);
    // Size field: the 0x01 marker, then the grown size in 7 bytes.
    expect(whole[44]).toBe(0x01);
    expect(view.getUint32(48)).toBe(size - 52 + inserted);
    // The Cues, then a CuePoint per Cluster: its time, then a track and position per track.
    expect([...whole.subarray(100, 104)]).toEqual([0x1c, 0x53, 0xbb, 0x6b]);
    const cues = cuePoints(whole, inserted);
    expect(cues).toEqual([
      [0, 1, 100],
      [0, 2, 100],
      [2000, 2, 500],
      [4000, 1, 950],
      [4000, 2, 950],
    ]);
  });

  it("names the video track alone when every Cluster holds a key frame", async () => {
    const { source } = file(1000);
    const keys = Uint8Array.of(1, 1, 1);
    const virtual = withClusterCues(source, indexOf(1000, 948, 8, keys));
    if (virtual === null) throw new Error("the 8-byte size field holds any size");
    const whole = await virtual.read(0, virtual.size);
    expect(cuePoints(whole, virtual.size - 1000)).toEqual([
      [0, 1, 100],
      [2000, 1, 500],
      [4000, 1, 950],
    ]);
  });

  it("is not made when the grown size does not fit the Segment's size field", () => {
    const { source } = file(1000);
    // One byte holds sizes up to 126; the Cues alone are 158 bytes.
    expect(withClusterCues(source, indexOf(1000, 100, 1))).toBeNull();
  });
});
