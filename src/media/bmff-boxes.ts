import { corruptMedia } from "./errors";
import { ByteView, type RangeReader } from "./range-reader";

/** A box's place in the file; `end` may lie past the end of a truncated file. */
export interface BoxLocation {
  type: string;
  start: number;
  headerSize: number;
  end: number;
}

/** A box read into memory: its type and its body (the bytes after the header). */
export interface Box {
  type: string;
  body: Uint8Array;
}

/** Top-level box types that mark the start of an ISO BMFF / QuickTime file. */
export const TOP_LEVEL_TYPES = new Set([
  "ftyp",
  "moov",
  "mdat",
  "free",
  "skip",
  "wide",
  "pnot",
  "uuid",
  "styp",
  "sidx",
]);

/** The moov of real files is a few MiB at most; more means a garbled size field. */
const MAX_MOOV_BYTES = 256 * 1024 * 1024;

/**
 * Walks the top-level boxes by their headers alone, so a 2 GiB `mdat` or `free` costs one
 * 16-byte read. Stops at the first fragment: fragmented files keep their index elsewhere.
 */
export async function topLevelBoxes(reader: RangeReader): Promise<BoxLocation[]> {
  const boxes: BoxLocation[] = [];
  let position = 0;
  while (position + 8 <= reader.size) {
    const header = new ByteView(await reader.bytes(position, 16));
    let size = header.u32(0);
    const type = header.fourCc(4);
    // Some recorders pad files with junk after the last box; it is not a box to check.
    if (!/^[\x20-\x7e]{4}$/.test(type)) break;
    let headerSize = 8;
    if (size === 1) {
      if (header.length < 16) break;
      size = header.u64(8);
      headerSize = 16;
    } else if (size === 0) {
      size = reader.size - position;
    }
    if (size < headerSize) {
      throw corruptMedia(`The box "${type}" at byte ${position} has an impossible size ${size}.`);
    }
    boxes.push({ type, start: position, headerSize, end: position + size });
    if (type === "moof") break;
    position += size;
  }
  return boxes;
}

/** Reads the `moov` box of a walked file; a missing or cut `moov` makes the file corrupt. */
export async function readMoov(reader: RangeReader, boxes: BoxLocation[]): Promise<Uint8Array> {
  const moov = findMoov(reader, boxes);
  return reader.source.read(moov.start + moov.headerSize, moov.end);
}

/** The `moov` box of a walked file; a missing or cut `moov` makes the file corrupt. */
export function findMoov(reader: RangeReader, boxes: BoxLocation[]): BoxLocation {
  const moov = boxes.find((box) => box.type === "moov");
  if (moov === undefined) {
    throw corruptMedia("The file has no movie header (moov box); the upload may be incomplete.");
  }
  if (moov.end > reader.size) {
    throw corruptMedia(
      `The movie header (moov box) ends at byte ${moov.end} but the file has ${reader.size} bytes.`,
    );
  }
  const bodyLength = moov.end - moov.start - moov.headerSize;
  if (bodyLength > MAX_MOOV_BYTES) {
    throw corruptMedia(`The movie header (moov box) claims ${bodyLength} bytes.`);
  }
  return moov;
}

/** The child boxes inside a box body; a child that overruns its parent makes the file corrupt. */
export function childBoxes(body: Uint8Array): Box[] {
  const view = new ByteView(body);
  const boxes: Box[] = [];
  let position = 0;
  while (position + 8 <= body.length) {
    let size = view.u32(position);
    const type = view.fourCc(position + 4);
    let headerSize = 8;
    if (size === 1) {
      if (position + 16 > body.length) break;
      size = view.u64(position + 8);
      headerSize = 16;
    } else if (size === 0) {
      size = body.length - position;
    }
    // QuickTime ends some atom lists with a 4-byte zero terminator, hence `< 8` not `!== 0`.
    if (size < headerSize || position + size > body.length) {
      if (size < 8 && view.u32(position) === 0) break;
      throw corruptMedia(`The "${type}" box in the movie header has a size that does not fit.`);
    }
    boxes.push({ type, body: body.subarray(position + headerSize, position + size) });
    position += size;
  }
  return boxes;
}

/** The first child of `body` at `path` (e.g. `["mdia", "minf", "stbl"]`). */
export function findBox(body: Uint8Array, path: string[]): Box | undefined {
  let current: Box | undefined = { type: "", body };
  for (const type of path) {
    current = childBoxes(current.body).find((box) => box.type === type);
    if (current === undefined) return undefined;
  }
  return current;
}
