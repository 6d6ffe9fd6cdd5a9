import type { RangeSource } from "../../src/domain/media";
import { STREAM_PIECE_BYTES } from "../../src/media/stream-reader";
import { concat, ebmlHeader, element, float, idBytes, size8, text, uint } from "./long-mkv";
import { FPS, fixtureGop, GOP_FRAMES, type Gop } from "./long-mkv-gop";

/** What a long synthetic Matroska video holds. */
export interface LongMkvVideoOptions {
  hours: number;
  /** A Cues element after the Clusters (a point per Cluster), found through the SeekHead. */
  cues?: boolean;
  /** Segment and Clusters of unknown size, as a live recorder (MediaRecorder) writes them. */
  live?: boolean;
  /** An empty Tags element at the end, listed in the SeekHead (a position past the Clusters). */
  tagsAtEnd?: boolean;
  /** "mkv": H.264 1080p and AAC of clip-1080p.mp4; "webm": VP9 160x90 and Opus of captions.webm. */
  container?: "mkv" | "webm";
}

/** An 8-byte size of all ones: the element runs until the next one of its level. */
const UNKNOWN_SIZE = Uint8Array.of(0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff);
/** A Cluster per GOP: 2 s. */
const CLUSTER_MS = (GOP_FRAMES / FPS) * 1000;
const Ids = {
  Segment: 0x18538067,
  SeekHead: 0x114d9b74,
  Info: 0x1549a966,
  Tracks: 0x1654ae6b,
  Cluster: 0x1f43b675,
  Cues: 0x1c53bb6b,
  Tags: 0x1254c367,
  CuePoint: 0xbb,
  CueTime: 0xb3,
};

/** A stretch of the file whose bytes are written into a read's buffer when asked for. */
interface Region {
  length: number;
  /** Writes bytes [from, to) of the region at `at` in `out`. */
  copy(out: Uint8Array, at: number, from: number, to: number): void;
}

/**
 * A Matroska (or WebM) file of `hours` of video and audio whose Clusters repeat one GOP of a
 * fixture with increasing timestamps: a Cluster per GOP (2 s) of SimpleBlocks interleaved by
 * time, its key frame first. Bytes are computed per read, so however long the file, it costs
 * one template of the Clusters after which the audio packets line up again (8 s for AAC, a
 * Cluster for Opus), and its length is rounded up to whole templates. 10 hours of the 1080p
 * GOP is 5.7 GB. Cue points have 8-byte values (41 bytes each, about twice a muxer's).
 */
export async function longMkvVideo(options: LongMkvVideoOptions): Promise<RangeSource> {
  const { hours, cues = true, tagsAtEnd = false, live = false, container = "mkv" } = options;
  const gop = await fixtureGop(container);
  const period = clusterPeriod(gop, live);
  const periods = Math.ceil((hours * 3600 * 1000) / CLUSTER_MS / period.clusters);
  const clusterCount = periods * period.clusters;
  const clusters = unitRegion(period.bytes, periods, (index) =>
    period.timestampAt.map((at, i): [number, number] => [
      at,
      (index * period.clusters + i) * CLUSTER_MS,
    ]),
  );
  const info = element(
    Ids.Info,
    concat([
      uint(0x2ad7b1, 1_000_000),
      float(0x4489, clusterCount * CLUSTER_MS),
      text(0x4d80, "long-mkv-video"),
      text(0x5741, "long-mkv-video"),
    ]),
  );
  const tracks = element(Ids.Tracks, concat([videoEntry(gop), audioEntry(gop)]));
  // Positions are fixed-width, so the SeekHead's length is known before they are.
  const extra: [number, number][] = tagsAtEnd ? [[Ids.Tags, 0]] : [];
  const infoAt = seekHead(cues, 0, 0, 0, extra).length;
  const tracksAt = infoAt + info.length;
  const clustersAt = tracksAt + tracks.length;
  const cuesAt = clustersAt + clusters.length;
  const clusterPosition = (k: number) =>
    clustersAt +
    Math.floor(k / period.clusters) * period.bytes.length +
    (period.clusterAt[k % period.clusters] ?? 0);
  const cuePoint = element(
    Ids.CuePoint,
    concat([
      fixedUint(Ids.CueTime, 0),
      element(0xb7, concat([fixedUint(0xf7, 1), fixedUint(0xf1, 0)])),
    ]),
  );
  const cueTimeAt = idBytes(Ids.CuePoint).length + 8 + idBytes(Ids.CueTime).length + 1;
  const cuePoints = unitRegion(cuePoint, clusterCount, (k) => [
    [cueTimeAt, k * CLUSTER_MS],
    [cuePoint.length - 8, clusterPosition(k)],
  ]);
  const cuesHead = concat([idBytes(Ids.Cues), size8(cuePoints.length)]);
  const tagsAt = cuesAt + (cues ? cuesHead.length + cuePoints.length : 0);
  const tags: [number, number][] = tagsAtEnd ? [[Ids.Tags, tagsAt]] : [];
  const body: Region[] = [
    bytesRegion(seekHead(cues, infoAt, tracksAt, cuesAt, tags)),
    bytesRegion(info),
    bytesRegion(tracks),
    clusters,
    ...(cues ? [bytesRegion(cuesHead), cuePoints] : []),
    ...(tagsAtEnd ? [bytesRegion(element(Ids.Tags, new Uint8Array(0)))] : []),
  ];
  const bodyLength = body.reduce((n, region) => n + region.length, 0);
  const head = concat([
    ebmlHeader(container === "mkv" ? "matroska" : "webm"),
    idBytes(Ids.Segment),
    live ? UNKNOWN_SIZE : size8(bodyLength),
  ]);
  return regionsSource([bytesRegion(head), ...body]);
}

/** The Clusters of one period, with where each starts and where its Timestamp value sits. */
function clusterPeriod(gop: Gop, live: boolean) {
  const { sampleRate, frameSamples } = gop.audio;
  const framesPer = (clusters: number) =>
    (clusters * CLUSTER_MS * sampleRate) / 1000 / frameSamples;
  let clusters = 1;
  while (!Number.isInteger(framesPer(clusters))) clusters++;
  const parts: Uint8Array[] = [];
  const clusterAt: number[] = [];
  const timestampAt: number[] = [];
  let length = 0;
  for (let j = 0; j < clusters; j++) {
    const blocks: { time: number; bytes: Uint8Array }[] = gop.video.packets.map((packet, i) => ({
      time: (i * 1000) / FPS,
      bytes: simpleBlock(1, (packet.frame * 1000) / FPS, i === 0, packet.data),
    }));
    for (let n = Math.ceil(framesPer(j)); n < Math.ceil(framesPer(j + 1)); n++) {
      const time = Math.round((n * frameSamples * 1000) / sampleRate) - j * CLUSTER_MS;
      const data = gop.audio.packets[n % gop.audio.packets.length] ?? new Uint8Array(0);
      blocks.push({ time, bytes: simpleBlock(2, time, true, data) });
    }
    // Interleaved by time, as muxers write them; video first on a tie (stable sort).
    blocks.sort((a, b) => a.time - b.time);
    const timestamp = fixedUint(0xe7, 0);
    const body = concat([timestamp, ...blocks.map((block) => block.bytes)]);
    const head = concat([idBytes(Ids.Cluster), live ? UNKNOWN_SIZE : size8(body.length)]);
    clusterAt.push(length);
    timestampAt.push(length + head.length + timestamp.length - 8);
    parts.push(head, body);
    length += head.length + body.length;
  }
  return { clusters, bytes: concat(parts), clusterAt, timestampAt };
}

function simpleBlock(track: number, relativeMs: number, key: boolean, data: Uint8Array) {
  const head = new Uint8Array(4);
  const view = new DataView(head.buffer);
  view.setUint8(0, 0x80 | track);
  view.setInt16(1, Math.round(relativeMs));
  view.setUint8(3, key ? 0x80 : 0);
  return element(0xa3, concat([head, data]));
}

function videoEntry(gop: Gop): Uint8Array {
  const { codecId, codecPrivate, width, height } = gop.video;
  return element(
    0xae,
    concat([
      uint(0xd7, 1),
      uint(0x73c5, 1),
      uint(0x83, 1),
      uint(0x9c, 0),
      text(0x86, codecId),
      ...(codecPrivate ? [element(0x63a2, codecPrivate)] : []),
      uint(0x23e383, 1e9 / FPS),
      element(0xe0, concat([uint(0xb0, width), uint(0xba, height)])),
    ]),
  );
}

function audioEntry(gop: Gop): Uint8Array {
  const { codecId, codecPrivate, sampleRate, channels, frameSamples } = gop.audio;
  return element(
    0xae,
    concat([
      uint(0xd7, 2),
      uint(0x73c5, 2),
      uint(0x83, 2),
      uint(0x9c, 0),
      text(0x86, codecId),
      ...(codecPrivate ? [element(0x63a2, codecPrivate)] : []),
      uint(0x23e383, Math.round((frameSamples / sampleRate) * 1e9)),
      element(0xe1, concat([float(0xb5, sampleRate), uint(0x9f, channels)])),
    ]),
  );
}

/**
 * A SeekHead pointing at Info, Tracks, (with `cues`) Cues and `extra` elements, by
 * Segment-relative positions.
 */
function seekHead(
  cues: boolean,
  infoAt: number,
  tracksAt: number,
  cuesAt: number,
  extra: [number, number][],
): Uint8Array {
  const targets: [number, number][] = [
    [Ids.Info, infoAt],
    [Ids.Tracks, tracksAt],
    ...(cues ? [[Ids.Cues, cuesAt] satisfies [number, number]] : []),
    ...extra,
  ];
  const seeks = targets.map(([id, at]) =>
    element(0x4dbb, concat([element(0x53ab, idBytes(id)), fixedUint(0x53ac, at)])),
  );
  return element(Ids.SeekHead, concat(seeks));
}

/** An unsigned integer element of 8 bytes whatever the value, so it can be patched in place. */
function fixedUint(id: number, value: number): Uint8Array {
  const out = concat([idBytes(id), Uint8Array.of(0x88), new Uint8Array(8)]);
  writeUint64(out, out.length - 8, value);
  return out;
}

function writeUint64(out: Uint8Array, at: number, value: number): void {
  for (let i = 7, v = value; i >= 0; i--, v = Math.floor(v / 256)) out[at + i] = v % 256;
}

function bytesRegion(bytes: Uint8Array): Region {
  return {
    length: bytes.length,
    copy: (out, at, from, to) => out.set(bytes.subarray(from, to), at),
  };
}

/** `count` copies of `unit`, each with 8-byte values patched in at the offsets `patches` gives. */
function unitRegion(
  unit: Uint8Array,
  count: number,
  patches: (index: number) => [number, number][],
): Region {
  const size = unit.length;
  return {
    length: size * count,
    copy(out, at, from, to) {
      const value = new Uint8Array(8);
      for (let index = Math.floor(from / size); index * size < to; index++) {
        const start = index * size;
        const a = Math.max(from, start) - start;
        const b = Math.min(to, start + size) - start;
        const into = at + start - from;
        out.set(unit.subarray(a, b), into + a);
        for (const [offset, v] of patches(index)) {
          if (offset + 8 <= a || offset >= b) continue;
          writeUint64(value, 0, v);
          for (let i = Math.max(a, offset); i < Math.min(b, offset + 8); i++) {
            out[into + i] = value[i - offset] ?? 0;
          }
        }
      }
    },
  };
}

/**
 * A RangeSource over regions; each read allocates only the bytes it returns, as R2 would, and
 * a streamed read a piece of `STREAM_PIECE_BYTES` at a time, as R2's body read by BYOB does.
 */
function regionsSource(regions: Region[]): RangeSource {
  const size = regions.reduce((n, region) => n + region.length, 0);
  const read = async (start: number, end: number) => {
    const stop = Math.min(end, size);
    const out = new Uint8Array(Math.max(0, stop - start));
    let offset = 0;
    for (const region of regions) {
      const from = Math.max(start, offset);
      const to = Math.min(stop, offset + region.length);
      if (from < to) region.copy(out, from - start, from - offset, to - offset);
      offset += region.length;
      if (offset >= stop) break;
    }
    return out;
  };
  return {
    size,
    read,
    async *stream(start, end) {
      const stop = Math.min(end, size);
      for (let at = start; at < stop; at += STREAM_PIECE_BYTES) {
        yield await read(at, Math.min(stop, at + STREAM_PIECE_BYTES));
      }
    },
  };
}
