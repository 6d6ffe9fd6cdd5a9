import type { ClusterIndex, RangeSource } from "../domain/media";

export type { ClusterIndex };

const HEAD_FIELDS = 8;
const FORMAT_VERSION = 2;

/**
 * The index as bytes: eight header numbers, the other tracks, the ticks and the offsets (as
 * float64), then a byte per Cluster saying whether it holds a video key frame.
 */
export function encodeClusterIndex(index: ClusterIndex): Uint8Array {
  const count = index.ticks.length;
  const others = index.otherTracks.length;
  const numbers = HEAD_FIELDS + others + 2 * count;
  const out = new Uint8Array(numbers * 8 + count);
  const floats = new Float64Array(out.buffer, 0, numbers);
  floats.set([
    FORMAT_VERSION,
    index.videoTrack,
    index.segmentStart,
    index.segmentDataStart,
    index.segmentSize ?? -1,
    index.firstCluster,
    count,
    others,
  ]);
  floats.set(index.otherTracks, HEAD_FIELDS);
  floats.set(index.ticks, HEAD_FIELDS + others);
  floats.set(index.offsets, HEAD_FIELDS + others + count);
  out.set(index.keys, numbers * 8);
  return out;
}

/** Reads what `encodeClusterIndex` wrote; null for bytes of another shape. */
export function decodeClusterIndex(bytes: ArrayBuffer): ClusterIndex | null {
  if (bytes.byteLength < HEAD_FIELDS * 8) return null;
  const head = new Float64Array(bytes, 0, HEAD_FIELDS);
  const [version, videoTrack, segmentStart, segmentDataStart, size, firstCluster, count, others] =
    head;
  if (version !== FORMAT_VERSION || count === undefined || others === undefined) return null;
  const numbers = HEAD_FIELDS + others + 2 * count;
  if (bytes.byteLength !== numbers * 8 + count) return null;
  const floats = new Float64Array(bytes, 0, numbers);
  const tracksEnd = HEAD_FIELDS + others;
  return {
    videoTrack: videoTrack ?? 0,
    otherTracks: [...floats.subarray(HEAD_FIELDS, tracksEnd)],
    segmentStart: segmentStart ?? 0,
    segmentDataStart: segmentDataStart ?? 0,
    segmentSize: size === undefined || size < 0 ? null : size,
    firstCluster: firstCluster ?? 0,
    ticks: floats.subarray(tracksEnd, tracksEnd + count),
    offsets: floats.subarray(tracksEnd + count, numbers),
    keys: new Uint8Array(bytes, numbers * 8, count),
  };
}

/** Grows the index's columns without holding more than twice what they need. */
export class ClusterIndexBuilder {
  private ticks = new Float64Array(1024);
  private offsets = new Float64Array(1024);
  private keys = new Uint8Array(1024);
  private count = 0;

  constructor(readonly videoTrack: number) {}

  add(offset: number, ticks: number, key: boolean): void {
    if (this.count === this.ticks.length) {
      this.ticks = grown(this.ticks);
      this.offsets = grown(this.offsets);
      const keys = new Uint8Array(this.keys.length * 2);
      keys.set(this.keys);
      this.keys = keys;
    }
    this.ticks[this.count] = ticks;
    this.offsets[this.count] = offset;
    this.keys[this.count] = key ? 1 : 0;
    this.count++;
  }

  get length(): number {
    return this.count;
  }

  /** The columns, trimmed to what was added. */
  columns(): { ticks: Float64Array; offsets: Float64Array; keys: Uint8Array } {
    return {
      ticks: this.ticks.slice(0, this.count),
      offsets: this.offsets.slice(0, this.count),
      keys: this.keys.slice(0, this.count),
    };
  }
}

function grown(column: Float64Array<ArrayBuffer>): Float64Array<ArrayBuffer> {
  const next = new Float64Array(column.length * 2);
  next.set(column);
  return next;
}

const CUES_ID = [0x1c, 0x53, 0xbb, 0x6b];
/** The Cues ID and an 8-byte size. */
const CUES_HEAD_BYTES = 12;
/** A CuePoint's ID, 1-byte size and CueTime (an 8-byte value). */
const CUE_POINT_HEAD_BYTES = 12;
/** A CueTrackPositions: CueTrack and CueClusterPosition as 8-byte values. */
const TRACK_POSITIONS_BYTES = 22;
/** The most tracks a CuePoint names: the video track and four others. */
export const MAX_CUE_TRACKS = 5;

/**
 * The file as it would be with a Cues element just before its first Cluster: a CuePoint per
 * Cluster, pointing the other tracks at every Cluster and the video track at those holding
 * its key frames (as a muxer's Cues do); only the video track when every Cluster holds one. Every later byte moves by the Cues' length, and the
 * Segment's size grows by it. mediabunny reads Cues placed before the Clusters with the other
 * header elements, then seeks by them instead of walking every Cluster before the time it
 * wants. Null when the grown size does not fit the Segment's size field.
 */
export function withClusterCues(source: RangeSource, index: ClusterIndex): RangeSource | null {
  const count = index.ticks.length;
  // When every Cluster holds a key frame (a Cluster per GOP), the video's cue points alone
  // serve: mediabunny lends them to the tracks that have none, and holds half as many.
  const everyKey = index.keys.every((key) => key === 1);
  const withVideo = everyKey ? [index.videoTrack] : [index.videoTrack, ...index.otherTracks];
  const tracksAt = (i: number) => (index.keys[i] === 1 ? withVideo : index.otherTracks);
  let body = 0;
  for (let i = 0; i < count; i++) {
    const tracks = tracksAt(i).length;
    if (tracks > 0) body += CUE_POINT_HEAD_BYTES + TRACK_POSITIONS_BYTES * tracks;
  }
  const inserted = CUES_HEAD_BYTES + body;
  const sizeWidth = index.segmentDataStart - index.segmentStart - 4;
  let sizeField: Uint8Array | null = null;
  if (index.segmentSize !== null) {
    sizeField = vint(index.segmentSize + inserted, sizeWidth);
    if (sizeField === null) return null;
  }
  const cues = new Uint8Array(inserted);
  cues.set(CUES_ID, 0);
  cues[4] = 0x01;
  writeUint(cues, 5, 7, body);
  let at = CUES_HEAD_BYTES;
  for (let i = 0; i < count; i++) {
    const tracks = tracksAt(i);
    if (tracks.length === 0) continue;
    // Segment-relative, in the file as it reads with the Cues in it.
    const position = (index.offsets[i] ?? 0) + inserted - index.segmentDataStart;
    // A CuePoint of up to five tracks (`MAX_CUE_TRACKS`) has a one-byte size.
    cues.set([0xbb, 0x80 | (10 + TRACK_POSITIONS_BYTES * tracks.length), 0xb3, 0x88], at);
    writeUint(cues, at + 4, 8, index.ticks[i] ?? 0);
    at += CUE_POINT_HEAD_BYTES;
    for (const track of tracks) {
      cues.set([0xb7, 0x80 | 20, 0xf7, 0x88], at);
      writeUint(cues, at + 4, 8, track);
      cues.set([0xf1, 0x88], at + 12);
      writeUint(cues, at + 14, 8, position);
      at += TRACK_POSITIONS_BYTES;
    }
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
