import type { ClusterIndex, RangeSource } from "../../domain/media";

export type { ClusterIndex };

const HEAD_FIELDS = 7;
const FORMAT_VERSION = 1;

/** The index as bytes: seven header numbers, then the ticks, then the offsets (float64). */
export function encodeClusterIndex(index: ClusterIndex): Uint8Array {
  const count = index.ticks.length;
  const out = new Float64Array(HEAD_FIELDS + 2 * count);
  out.set([
    FORMAT_VERSION,
    index.videoTrack,
    index.segmentStart,
    index.segmentDataStart,
    index.segmentSize ?? -1,
    index.firstCluster,
    count,
  ]);
  out.set(index.ticks, HEAD_FIELDS);
  out.set(index.offsets, HEAD_FIELDS + count);
  return new Uint8Array(out.buffer);
}

/** Reads what `encodeClusterIndex` wrote; null for bytes of another shape. */
export function decodeClusterIndex(bytes: ArrayBuffer): ClusterIndex | null {
  if (bytes.byteLength % 8 !== 0 || bytes.byteLength < HEAD_FIELDS * 8) return null;
  const all = new Float64Array(bytes);
  const [version, videoTrack, segmentStart, segmentDataStart, size, firstCluster, count] = all;
  if (version !== FORMAT_VERSION || count === undefined || all.length !== HEAD_FIELDS + 2 * count) {
    return null;
  }
  return {
    videoTrack: videoTrack ?? 0,
    segmentStart: segmentStart ?? 0,
    segmentDataStart: segmentDataStart ?? 0,
    segmentSize: size === undefined || size < 0 ? null : size,
    firstCluster: firstCluster ?? 0,
    ticks: all.subarray(HEAD_FIELDS, HEAD_FIELDS + count),
    offsets: all.subarray(HEAD_FIELDS + count),
  };
}

/** Grows a pair of float64 columns without holding more than twice what they need. */
export class ClusterIndexBuilder {
  private ticks = new Float64Array(1024);
  private offsets = new Float64Array(1024);
  private count = 0;

  add(offset: number, ticks: number): void {
    if (this.count === this.ticks.length) {
      this.ticks = grown(this.ticks);
      this.offsets = grown(this.offsets);
    }
    this.ticks[this.count] = ticks;
    this.offsets[this.count] = offset;
    this.count++;
  }

  get length(): number {
    return this.count;
  }

  /** The columns, trimmed to what was added. */
  columns(): { ticks: Float64Array; offsets: Float64Array } {
    return { ticks: this.ticks.slice(0, this.count), offsets: this.offsets.slice(0, this.count) };
  }
}

function grown(column: Float64Array<ArrayBuffer>): Float64Array<ArrayBuffer> {
  const next = new Float64Array(column.length * 2);
  next.set(column);
  return next;
}

const CUES_ID = [0x1c, 0x53, 0xbb, 0x6b];
/** A CuePoint of fixed width: CueTime, CueTrack and CueClusterPosition as 8-byte values. */
const CUE_POINT_BYTES = 34;
/** The Cues ID and an 8-byte size. */
const CUES_HEAD_BYTES = 12;

/**
 * The file as it would be with a Cues element (a CuePoint per Cluster, for the video track)
 * just before its first Cluster: every later byte moves by the Cues' length, and the Segment's
 * size grows by it. mediabunny reads Cues placed before the Clusters with the other header
 * elements and then seeks by them instead of walking every Cluster before the time it wants.
 * Null when the grown size does not fit the Segment's size field.
 */
export function withClusterCues(source: RangeSource, index: ClusterIndex): RangeSource | null {
  const count = index.ticks.length;
  const inserted = CUES_HEAD_BYTES + CUE_POINT_BYTES * count;
  const sizeWidth = index.segmentDataStart - index.segmentStart - 4;
  let sizeField: Uint8Array | null = null;
  if (index.segmentSize !== null) {
    sizeField = vint(index.segmentSize + inserted, sizeWidth);
    if (sizeField === null) return null;
  }
  const cues = new Uint8Array(inserted);
  cues.set(CUES_ID, 0);
  cues[4] = 0x01;
  writeUint(cues, 5, 7, CUE_POINT_BYTES * count);
  for (let i = 0; i < count; i++) {
    const at = CUES_HEAD_BYTES + i * CUE_POINT_BYTES;
    // Segment-relative, in the file as it reads with the Cues in it.
    const position = (index.offsets[i] ?? 0) + inserted - index.segmentDataStart;
    cues.set([0xbb, 0x80 | 32, 0xb3, 0x88], at);
    writeUint(cues, at + 4, 8, index.ticks[i] ?? 0);
    cues.set([0xb7, 0x80 | 20, 0xf7, 0x88], at + 12);
    writeUint(cues, at + 16, 8, index.videoTrack);
    cues.set([0xf1, 0x88], at + 24);
    writeUint(cues, at + 26, 8, position);
  }
  const split = index.firstCluster;
  const sizeAt = index.segmentStart + 4;
  return {
    size: source.size + inserted,
    read: async (start, end) => {
      const stop = Math.min(end, source.size + inserted);
      if (start >= stop) return new Uint8Array(0);
      if (stop <= split && (sizeField === null || start >= index.segmentDataStart)) {
        return source.read(start, stop);
      }
      if (start >= split + inserted) return source.read(start - inserted, stop - inserted);
      const out = new Uint8Array(stop - start);
      if (start < split) out.set(await source.read(start, Math.min(stop, split)), 0);
      if (sizeField !== null) {
        for (let i = 0; i < sizeField.length; i++) {
          const at = sizeAt + i - start;
          if (at >= 0 && at < out.length) out[at] = sizeField[i] ?? 0;
        }
      }
      const from = Math.max(start, split);
      const to = Math.min(stop, split + inserted);
      if (from < to) out.set(cues.subarray(from - split, to - split), from - start);
      if (stop > split + inserted) {
        const after = Math.max(start, split + inserted);
        out.set(await source.read(after - inserted, stop - inserted), after - start);
      }
      return out;
    },
  };
}

/** `value` as an EBML size of `width` bytes; null when it does not fit (all ones is unknown). */
function vint(value: number, width: number): Uint8Array | null {
  if (width < 1 || width > 8 || value >= 2 ** (7 * width) - 1) return null;
  const out = new Uint8Array(width);
  writeUint(out, 0, width, value);
  out[0] = (out[0] ?? 0) | (0x80 >> (width - 1));
  return out;
}

function writeUint(out: Uint8Array, at: number, width: number, value: number): void {
  for (let i = width - 1, v = value; i >= 0; i--, v = Math.floor(v / 256)) out[at + i] = v % 256;
}
