import type { EvidenceSpan } from "../domain/evidence";
import type { MediaProbe } from "../domain/media";
import { formatClock } from "./describe";
import type { VideoUnderstanding } from "./types";

/** The thumbnail of a video understanding. */
export type Thumbnail = VideoUnderstanding["thumbnail"];

const TITLE_MAX_CHARS = 42;

/** The embedded cover art with its evidence span, or null when the file has none. */
export function coverArtThumbnail(
  probe: MediaProbe,
): { thumbnail: Thumbnail; span: EvidenceSpan } | null {
  if (!probe.coverArt || probe.coverArt.bytes.byteLength === 0) return null;
  const { contentType, bytes } = probe.coverArt;
  return {
    thumbnail: { contentType, bytes, source: "cover-art" },
    // Cover art has no time in the video; it is cited at 0 as part of the file.
    span: {
      kind: "thumbnail",
      start: 0,
      end: 0,
      text: `Cover art embedded in the file (${contentType}).`,
      source: "cover-art",
    },
  };
}

/**
 * A generated SVG card stating the title (or filename), duration and resolution. It is
 * labelled as generated on its face and carries no evidence span: it shows nothing of the video.
 */
export function posterThumbnail(probe: MediaProbe, filename: string): Thumbnail {
  const title = truncate(probe.tags.title?.trim() || filename || "Untitled video");
  const facts = [formatClock(probe.duration), resolution(probe), probe.container.toUpperCase()];
  const svg = [
    '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360" viewBox="0 0 640 360"',
    ' role="img" aria-label="Generated poster, not a frame of the video">',
    '<rect width="640" height="360" fill="#1f2937"/>',
    `<text x="32" y="160" font-family="sans-serif" font-size="28" fill="#f9fafb">${escapeXml(title)}</text>`,
    `<text x="32" y="204" font-family="sans-serif" font-size="18" fill="#d1d5db">${escapeXml(facts.join(" · "))}</text>`,
    '<text x="32" y="328" font-family="sans-serif" font-size="14" fill="#9ca3af">',
    "Generated poster, not a frame of the video</text>",
    "</svg>",
  ].join("");
  return {
    contentType: "image/svg+xml",
    bytes: new TextEncoder().encode(svg),
    source: "poster",
  };
}

/** Display size (rotation applied), or a plain statement that there is no video track. */
function resolution(probe: MediaProbe): string {
  if (!probe.video) return "no video track";
  const { width, height, rotation } = probe.video;
  const quarterTurn = Math.abs(rotation) % 180 === 90;
  return quarterTurn ? `${height}×${width}` : `${width}×${height}`;
}

function truncate(text: string): string {
  const chars = [...text.replace(/\s+/g, " ")];
  return chars.length <= TITLE_MAX_CHARS
    ? chars.join("")
    : `${chars.slice(0, TITLE_MAX_CHARS - 1).join("")}…`;
}

function escapeXml(text: string): string {
  return (
    text
      // Control characters are not allowed in XML 1.0 at all.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "")
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/'/g, "&apos;")
  );
}
