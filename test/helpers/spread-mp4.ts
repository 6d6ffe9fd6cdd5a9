import type { FilePart } from "./media-sources";

interface Box {
  type: string;
  start: number;
  headerSize: number;
  end: number;
}

function boxesIn(bytes: Uint8Array, from: number, to: number): Box[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const boxes: Box[] = [];
  for (let at = from; at + 8 <= to; ) {
    const size32 = view.getUint32(at);
    const large = size32 === 1;
    const size = large ? Number(view.getBigUint64(at + 8)) : size32 === 0 ? to - at : size32;
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    boxes.push({ type, start: at, headerSize: large ? 16 : 8, end: at + size });
    if (size < 8) break;
    at += size;
  }
  return boxes;
}

function child(bytes: Uint8Array, parent: Box, path: string[]): Box | undefined {
  let box: Box | undefined = parent;
  for (const type of path) {
    if (box === undefined) return undefined;
    // stsd's entries follow its version, flags and entry count.
    const skip: number = box.type === "stsd" ? 8 : 0;
    box = boxesIn(bytes, box.start + box.headerSize + skip, box.end).find((b) => b.type === type);
  }
  return box;
}

/**
 * An MP4 made by mediabunny (`moov` before `mdat`, 32-bit chunk offsets) with `zerosBefore`
 * bytes of zeros inserted before each chunk of its WebVTT track, the chunk offsets moved to
 * match: the captions end up as far apart as in a film of a real bitrate, while the parts
 * allocate only the original bytes. The result must stay under 4 GiB.
 */
export function spreadWebVttChunks(mp4: Uint8Array, zerosBefore: number): FilePart[] {
  const top = boxesIn(mp4, 0, mp4.length);
  const moov = top.find((box) => box.type === "moov");
  const mdat = top.find((box) => box.type === "mdat");
  if (!moov || !mdat || moov.start > mdat.start || mdat.headerSize !== 8) {
    throw new Error("spreadWebVttChunks needs moov first and a 32-bit mdat");
  }
  const tables = boxesIn(mp4, moov.start + 8, moov.end)
    .filter((box) => box.type === "trak")
    .map((trak) => ({
      wvtt: child(mp4, trak, ["mdia", "minf", "stbl", "stsd", "wvtt"]) !== undefined,
      stco: child(mp4, trak, ["mdia", "minf", "stbl", "stco"]),
    }));
  const view = new DataView(mp4.buffer, mp4.byteOffset, mp4.byteLength);
  const offsetsOf = (stco: Box) =>
    Array.from({ length: view.getUint32(stco.start + 12) }, (_, i) => stco.start + 16 + 4 * i);
  const cuts = tables
    .filter((table) => table.wvtt && table.stco)
    .flatMap((table) => (table.stco ? offsetsOf(table.stco).map((at) => view.getUint32(at)) : []))
    .sort((a, b) => a - b);
  if (cuts.length === 0) throw new Error("spreadWebVttChunks found no WebVTT chunks");
  const out = mp4.slice();
  const outView = new DataView(out.buffer);
  const moved = (offset: number) => offset + zerosBefore * cutsUpTo(cuts, offset);
  for (const { stco } of tables) {
    if (!stco) throw new Error("spreadWebVttChunks handles stco only, not co64");
    for (const at of offsetsOf(stco)) outView.setUint32(at, moved(view.getUint32(at)));
  }
  outView.setUint32(mdat.start, mdat.end - mdat.start + zerosBefore * cuts.length);
  const parts: FilePart[] = [];
  let from = 0;
  for (const cut of cuts) {
    parts.push(out.subarray(from, cut), { zeros: zerosBefore });
    from = cut;
  }
  parts.push(out.subarray(from));
  return parts;
}

/** How many of the ascending `cuts` are at or before `offset`. */
function cutsUpTo(cuts: number[], offset: number): number {
  let low = 0;
  let high = cuts.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((cuts[middle] ?? Number.POSITIVE_INFINITY) <= offset) low = middle + 1;
    else high = middle;
  }
  return low;
}
