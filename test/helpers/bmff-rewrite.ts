/** Table forms mediabunny's muxer never writes, for a file it wrote. */
export interface TableRewrite {
  /** Chunk offsets as 64-bit `co64` entries instead of `stco`. */
  co64: boolean;
  /** Sample sizes as `stz2` fields of this many bits instead of `stsz`; 0 keeps `stsz`. */
  stz2Bits: 0 | 4 | 8 | 16;
  /** When given, a `ctts` that shows every sample this many units late, in each track without. */
  cttsOffset?: number;
}

interface Box {
  type: string;
  start: number;
  headerSize: number;
  end: number;
}

/** Boxes a moov nests sample tables in. */
const CONTAINERS = new Set(["moov", "trak", "mdia", "minf", "stbl"]);

/**
 * The same file with its chunk offsets and sample sizes written in the other forms ISO BMFF
 * allows (a camera writes `co64` past 4 GiB; `stz2` is rare but legal). The moov must follow
 * every mdat, so that a longer or shorter moov moves no sample. A table whose sizes do not
 * fit `stz2Bits`, or that has one size for every sample (PCM), is left as it is.
 */
export function rewriteTables(bytes: Uint8Array, rewrite: TableRewrite): Uint8Array {
  const top = boxesIn(bytes, 0, bytes.length);
  const moov = top.find((box) => box.type === "moov");
  if (moov === undefined) throw new Error("The file has no moov.");
  if (top.some((box) => box.type === "mdat" && box.start > moov.start)) {
    throw new Error("The moov comes before an mdat: rewriting it would move the samples.");
  }
  return concat([
    bytes.subarray(0, moov.start),
    rebuild(bytes, moov, rewrite),
    bytes.subarray(moov.end),
  ]);
}

function rebuild(bytes: Uint8Array, box: Box, rewrite: TableRewrite): Uint8Array {
  const body = bytes.subarray(box.start + box.headerSize, box.end);
  if (CONTAINERS.has(box.type)) {
    const children = boxesIn(bytes, box.start + box.headerSize, box.end);
    const parts = children.map((child) => rebuild(bytes, child, rewrite));
    const stts = children.findIndex((child) => child.type === "stts");
    const offset = rewrite.cttsOffset;
    if (offset !== undefined && stts >= 0 && !children.some((child) => child.type === "ctts")) {
      parts.splice(stts + 1, 0, constantCtts(bytes, children[stts], offset));
    }
    return withHeader(box.type, concat(parts));
  }
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  if (box.type === "stco" && rewrite.co64) {
    const count = view.getUint32(4);
    const table = new DataView(new ArrayBuffer(8 + count * 8));
    table.setUint32(4, count);
    for (let i = 0; i < count; i++)
      table.setBigUint64(8 + i * 8, BigInt(view.getUint32(8 + i * 4)));
    return withHeader("co64", new Uint8Array(table.buffer));
  }
  if (box.type === "stsz" && rewrite.stz2Bits > 0 && view.getUint32(4) === 0) {
    const count = view.getUint32(8);
    const sizes = Array.from({ length: count }, (_, i) => view.getUint32(12 + i * 4));
    const bits = rewrite.stz2Bits;
    if (sizes.some((size) => size >= 2 ** bits)) return withHeader(box.type, body);
    const table = new Uint8Array(12 + Math.ceil((count * bits) / 8));
    const fields = new DataView(table.buffer);
    table[7] = bits;
    fields.setUint32(8, count);
    for (const [i, size] of sizes.entries()) {
      if (bits === 16) fields.setUint16(12 + i * 2, size);
      else if (bits === 8) fields.setUint8(12 + i, size);
      else table[12 + (i >> 1)] = (table[12 + (i >> 1)] ?? 0) | (i % 2 === 0 ? size << 4 : size);
    }
    return withHeader("stz2", table);
  }
  return withHeader(box.type, body);
}

/** A `ctts` of one run: every sample the `stts` counts, shown `offset` units late. */
function constantCtts(bytes: Uint8Array, stts: Box | undefined, offset: number): Uint8Array {
  if (stts === undefined) throw new Error("No stts to count samples in.");
  const view = new DataView(bytes.buffer, bytes.byteOffset + stts.start + stts.headerSize);
  let samples = 0;
  for (let i = 0; i < view.getUint32(4); i++) samples += view.getUint32(8 + i * 8);
  const table = new DataView(new ArrayBuffer(16));
  table.setUint8(0, offset < 0 ? 1 : 0);
  table.setUint32(4, 1);
  table.setUint32(8, samples);
  table.setInt32(12, offset);
  return withHeader("ctts", new Uint8Array(table.buffer));
}

function boxesIn(bytes: Uint8Array, start: number, end: number): Box[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const boxes: Box[] = [];
  for (let at = start; at + 8 <= end; ) {
    let size = view.getUint32(at);
    let headerSize = 8;
    if (size === 1) {
      size = Number(view.getBigUint64(at + 8));
      headerSize = 16;
    } else if (size === 0) {
      size = end - at;
    }
    if (size < headerSize) break;
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    boxes.push({ type, start: at, headerSize, end: at + size });
    at += size;
  }
  return boxes;
}

function withHeader(type: string, body: Uint8Array): Uint8Array {
  const box = new Uint8Array(8 + body.length);
  new DataView(box.buffer).setUint32(0, box.length);
  for (let i = 0; i < 4; i++) box[4 + i] = type.charCodeAt(i);
  box.set(body, 8);
  return box;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const all = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return all;
}
