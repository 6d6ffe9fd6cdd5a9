/** A 16×16 grey baseline JPEG (made once with ffmpeg), without its encoder's comment. */
const GREY_JPEG_BASE64 =
  "/9j/4AAQSkZJRgABAgAAAQABAAD//gAQTGF2YzU5LjM3LjEwMAD/2wBDAAg+Pkk+SVVVVVVVVWRdZGhoaGRkZGRoaGhwcHCDg4NwcHBoaHBwfHyDg4+Tj4eHg4eTk5ubm7q6srLZ2eD/////xABKAAEAAAAAAAAAAAAAAAAAAAAAAQEAAAAAAAAAAAAAAAAAAAAAEAEAAAAAAAAAAAAAAAAAAAAAEQEAAAAAAAAAAAAAAAAAAAAA/8AAEQgAEAAQAwEiAAIRAAMRAP/aAAwDAQACEQMRAD8AAA//2Q==";

const SOI = 0xd8;
const COM = 0xfe;

interface Segment {
  marker: number;
  bytes: Uint8Array;
}

/** The marker segments before the scan, then the rest (scan data and EOI) as one piece. */
function segments(jpeg: Uint8Array): { head: Segment[]; rest: Uint8Array } {
  const head: Segment[] = [];
  let at = 2;
  while (at + 4 <= jpeg.length && jpeg[at] === 0xff) {
    const marker = jpeg[at + 1] ?? 0;
    const length = ((jpeg[at + 2] ?? 0) << 8) | (jpeg[at + 3] ?? 0);
    if (marker === 0xda) break;
    head.push({ marker, bytes: jpeg.subarray(at, at + 2 + length) });
    at += 2 + length;
  }
  return { head, rest: jpeg.subarray(at) };
}

/** A valid JPEG whose only comment (COM segment) is `comment`, UTF-8, at most 65,533 bytes. */
export function frameJpeg(comment: string): Uint8Array {
  const base = Uint8Array.from(atob(GREY_JPEG_BASE64), (c) => c.charCodeAt(0));
  const text = new TextEncoder().encode(comment);
  if (text.length > 65533) throw new RangeError("a JPEG comment holds at most 65,533 bytes");
  const com = new Uint8Array(4 + text.length);
  com.set([0xff, COM, ((text.length + 2) >> 8) & 0xff, (text.length + 2) & 0xff]);
  com.set(text, 4);
  const { head, rest } = segments(base);
  const kept = head.filter((s) => s.marker !== COM).map((s) => s.bytes);
  const parts = [new Uint8Array([0xff, SOI]), ...kept.slice(0, 1), com, ...kept.slice(1), rest];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** The comment of a JPEG (its first COM segment), or null when it has none or is no JPEG. */
export function jpegComment(jpeg: Uint8Array): string | null {
  if (jpeg[0] !== 0xff || jpeg[1] !== SOI) return null;
  const found = segments(jpeg).head.find((s) => s.marker === COM);
  return found ? new TextDecoder().decode(found.bytes.subarray(4)) : null;
}
