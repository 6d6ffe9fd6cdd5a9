import { TOP_LEVEL_TYPES } from "./bmff-boxes";
import { ByteView } from "./range-reader";

/** How many leading bytes the sniffers look at (an MPEG-TS check needs two 188-byte packets). */
export const SNIFF_BYTES = 189;

/** Leading bytes (null matches any byte) of files people upload by mistake. */
const LOOKALIKES: [(number | null)[], string][] = [
  [[0x89, 0x50, 0x4e, 0x47], "a PNG image"],
  [[0xff, 0xd8, 0xff], "a JPEG image"],
  [ascii("GIF8"), "a GIF image"],
  [ascii("%PDF"), "a PDF document"],
  [[0x50, 0x4b, 0x03, 0x04], "a ZIP archive"],
  [[...ascii("RIFF"), null, null, null, null, ...ascii("AVI ")], "an AVI video"],
  [[...ascii("RIFF"), null, null, null, null, ...ascii("WAVE")], "a WAV audio file"],
  [ascii("OggS"), "an Ogg file"],
  [ascii("FLV"), "an FLV video"],
  [ascii("ID3"), "an MP3 audio file"],
];

/** Whether the file starts with the EBML magic of Matroska and WebM. */
export function isEbml(head: Uint8Array): boolean {
  return head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3;
}

/** Whether the file starts with an ISO BMFF / QuickTime box header. */
export function isIsoBmff(head: Uint8Array): boolean {
  if (head.length < 8) return false;
  const view = new ByteView(head);
  const size = view.u32(0);
  return TOP_LEVEL_TYPES.has(view.fourCc(4)) && (size === 0 || size === 1 || size >= 8);
}

/**
 * The family member, by the major brand: QuickTime (`qt  `, or classic files with no `ftyp`)
 * is MOV; Apple's `M4V` brands are M4V; generic brands fall back to the file's extension.
 */
export function isoContainer(head: Uint8Array, filename: string): "mp4" | "mov" | "m4v" {
  const view = new ByteView(head);
  if (view.fourCc(4) !== "ftyp") return "mov";
  const brand = head.length >= 12 ? view.fourCc(8) : "";
  if (brand === "qt  ") return "mov";
  if (brand.startsWith("M4V")) return "m4v";
  return /\.m4v$/i.test(filename) ? "m4v" : "mp4";
}

/** What a non-video file looks like, for an error message a person can act on. */
export function describeLookalike(head: Uint8Array): string {
  const match = LOOKALIKES.find(([prefix]) =>
    prefix.every((byte, i) => byte === null || head[i] === byte),
  );
  if (match) return match[1];
  if (head[0] === 0x47 && head[188] === 0x47) return "an MPEG transport stream";
  const printable = head.every(
    (byte) => byte >= 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d,
  );
  return printable ? "a text file" : "not a video file we can read";
}

function ascii(text: string): number[] {
  return Array.from(text, (char) => char.charCodeAt(0));
}
