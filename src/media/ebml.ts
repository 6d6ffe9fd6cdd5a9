import type { ByteReader } from "./stream-reader";

/** EBML and Matroska element IDs used here (with their length marker bits, as written). */
export const Id = {
  Ebml: 0x1a45dfa3,
  DocType: 0x4282,
  Segment: 0x18538067,
  SeekHead: 0x114d9b74,
  Seek: 0x4dbb,
  SeekId: 0x53ab,
  SeekPosition: 0x53ac,
  Info: 0x1549a966,
  TimestampScale: 0x2ad7b1,
  Title: 0x7ba9,
  Tracks: 0x1654ae6b,
  TrackEntry: 0xae,
  TrackNumber: 0xd7,
  TrackType: 0x83,
  CodecId: 0x86,
  Language: 0x22b59c,
  LanguageBcp47: 0x22b59d,
  Name: 0x536e,
  DefaultDuration: 0x23e383,
  ContentEncodings: 0x6d80,
  ContentEncoding: 0x6240,
  ContentCompression: 0x5034,
  ContentCompAlgo: 0x4254,
  ContentCompSettings: 0x4255,
  ContentEncryption: 0x5035,
  Cluster: 0x1f43b675,
  Timestamp: 0xe7,
  SimpleBlock: 0xa3,
  BlockGroup: 0xa0,
  Block: 0xa1,
  BlockDuration: 0x9b,
  ReferenceBlock: 0xfb,
  Cues: 0x1c53bb6b,
  Tags: 0x1254c367,
  Attachments: 0x1941a469,
  Chapters: 0x1043a770,
} as const;

/** Children of a Segment: seeing one while inside a Cluster means the Cluster has ended. */
export const SEGMENT_CHILDREN: ReadonlySet<number> = new Set([
  Id.SeekHead,
  Id.Info,
  Id.Tracks,
  Id.Cluster,
  Id.Cues,
  Id.Tags,
  Id.Attachments,
  Id.Chapters,
]);

/** An element's ID and where its data lies; `size` is null for unknown-size (live) elements. */
export interface ElementHeader {
  id: number;
  dataStart: number;
  size: number | null;
}

/** An element read into memory. */
export interface Element {
  id: number;
  data: Uint8Array;
}

/** A variable-length integer at `offset`: its value (marker kept for IDs) and byte length. */
export function readVint(
  bytes: Uint8Array,
  offset: number,
  keepMarker: boolean,
): { value: number; length: number; allOnes: boolean } | null {
  const first = bytes[offset];
  if (first === undefined || first === 0) return null;
  const length = Math.clz32(first) - 23;
  if (offset + length > bytes.length) return null;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    const byte = bytes[offset + i] ?? 0;
    value = value * 256 + byte;
    allOnes &&= byte === 0xff;
  }
  return { value, length, allOnes };
}

/** Parses an element header at the start of `bytes` (at file position `position`). */
export function parseHeader(bytes: Uint8Array, position: number): ElementHeader | null {
  const id = readVint(bytes, 0, true);
  if (id === null || id.length > 4) return null;
  const size = readVint(bytes, id.length, false);
  if (size === null) return null;
  return {
    id: id.value,
    dataStart: position + id.length + size.length,
    size: size.allOnes ? null : size.value,
  };
}

/** Reads the element header at `position`, or null when the bytes there are not one. */
export async function readHeader(
  reader: ByteReader,
  position: number,
): Promise<ElementHeader | null> {
  return parseHeader(await reader.bytes(position, 12), position);
}

/** The child elements of an element's data; stops at anything that does not parse or fit. */
export function childElements(data: Uint8Array): Element[] {
  const elements: Element[] = [];
  let offset = 0;
  while (offset < data.length) {
    const header = parseHeader(data.subarray(offset), offset);
    if (header === null || header.size === null) break;
    const end = header.dataStart + header.size;
    if (end > data.length) break;
    elements.push({ id: header.id, data: data.subarray(header.dataStart, end) });
    offset = end;
  }
  return elements;
}

/** An unsigned integer element's value. */
export function readUint(data: Uint8Array): number {
  let value = 0;
  for (const byte of data) value = value * 256 + byte;
  return value;
}

/** A string element's value (UTF-8; ASCII is a subset), without trailing NUL padding. */
export function readString(data: Uint8Array): string {
  return new TextDecoder().decode(data).replace(/\0+$/, "");
}
