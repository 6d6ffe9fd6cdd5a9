import type { FilePart } from "./media-sources";

const encoder = new TextEncoder();

/** Parts joined into one array. */
export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** An EBML element ID's bytes (its length marker included, as IDs are written). */
export function idBytes(id: number): Uint8Array {
  const bytes: number[] = [];
  for (let v = id; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  return Uint8Array.from(bytes);
}

/** An 8-byte EBML size: simple to compute before the payload's parts are laid out. */
export function size8(length: number): Uint8Array {
  const out = new Uint8Array(8);
  out[0] = 0x01;
  for (let i = 7, v = length; i >= 1; i--, v = Math.floor(v / 256)) out[i] = v % 256;
  return out;
}

/** An element of `id` around `payload`. */
export function element(id: number, payload: Uint8Array): Uint8Array {
  return concat([idBytes(id), size8(payload.length), payload]);
}

/** An unsigned integer element, in as few bytes as the value needs. */
export function uint(id: number, value: number): Uint8Array {
  const bytes: number[] = [];
  for (let v = value; v > 0 || bytes.length === 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  return element(id, Uint8Array.from(bytes));
}

/** A 64-bit float element. */
export function float(id: number, value: number): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setFloat64(0, value);
  return element(id, out);
}

/** A UTF-8 string element. */
export const text = (id: number, value: string) => element(id, encoder.encode(value));

/** What a long synthetic Matroska file holds. */
export interface LongMkvOptions {
  seconds: number;
  /** One cluster, one video keyframe and one subtitle cue per this many seconds. */
  clusterSeconds: number;
  /** Bytes of (zero) video per cluster: what lies between two cues in a real file. */
  videoBytesPerCluster: number;
}

/** The EBML header of a Matroska (`matroska`) or WebM (`webm`) file. */
export function ebmlHeader(docType: "matroska" | "webm"): Uint8Array {
  return element(
    0x1a45dfa3,
    concat([
      uint(0x4286, 1),
      uint(0x42f7, 1),
      uint(0x42f2, 4),
      uint(0x42f3, 8),
      text(0x4282, docType),
      uint(0x4287, 4),
      uint(0x4285, 2),
    ]),
  );
}

/**
 * A Matroska file of one VP8 track and one SRT subtitle track, as parts: a keyframe of zeros
 * and a cue per cluster, so a reader must visit every cluster to find every cue, as in a
 * real film, without the test allocating the file.
 */
export function longSubtitledMkv(options: LongMkvOptions): FilePart[] {
  const { seconds, clusterSeconds, videoBytesPerCluster } = options;
  const header = ebmlHeader("matroska");
  const info = element(
    0x1549a966,
    concat([uint(0x2ad7b1, 1_000_000), float(0x4489, seconds * 1000), text(0x4d80, "test")]),
  );
  const tracks = element(
    0x1654ae6b,
    concat([
      element(
        0xae,
        concat([
          uint(0xd7, 1),
          uint(0x73c5, 1),
          uint(0x83, 1),
          text(0x86, "V_VP8"),
          element(0xe0, concat([uint(0xb0, 320), uint(0xba, 240)])),
        ]),
      ),
      element(
        0xae,
        concat([
          uint(0xd7, 2),
          uint(0x73c5, 2),
          uint(0x83, 0x11),
          text(0x86, "S_TEXT/UTF8"),
          text(0x22b59c, "eng"),
        ]),
      ),
    ]),
  );
  const clusters: FilePart[] = [];
  let clustersBytes = 0;
  for (let t = 0; t < seconds; t += clusterSeconds) {
    const cue = encoder.encode(`Line spoken at second ${t}`);
    const block = element(
      0xa0,
      concat([
        element(0xa1, concat([Uint8Array.from([0x82, 0, 0, 0]), cue])),
        uint(0x9b, clusterSeconds * 1000 - 500),
      ]),
    );
    const videoHead = concat([
      idBytes(0xa3),
      size8(4 + videoBytesPerCluster),
      Uint8Array.from([0x81, 0, 0, 0x80]),
    ]);
    const timestamp = uint(0xe7, t * 1000);
    const body = timestamp.length + videoHead.length + videoBytesPerCluster + block.length;
    const head = concat([idBytes(0x1f43b675), size8(body), timestamp, videoHead]);
    clusters.push(head, { zeros: videoBytesPerCluster }, block);
    clustersBytes += head.length + videoBytesPerCluster + block.length;
  }
  const segmentHead = concat([
    idBytes(0x18538067),
    size8(info.length + tracks.length + clustersBytes),
    info,
    tracks,
  ]);
  return [header, segmentHead, ...clusters];
}
