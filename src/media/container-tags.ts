import type { MetadataTags } from "mediabunny";
import type { MediaProbe, MediaTags } from "../domain/media";

/** Raw tag names (lowercase) that feed each normalised field, most specific first. */
const SOURCES = {
  title: ["©nam", "title", "com.apple.quicktime.title"],
  description: [
    "desc",
    "description",
    "com.apple.quicktime.description",
    "ldes",
    "©des",
    "summary",
    "synopsis",
  ],
  comment: ["©cmt", "comment", "com.apple.quicktime.comment"],
  keywords: ["keyw", "©key", "keywords", "com.apple.quicktime.keywords"],
  artist: ["©art", "artist", "com.apple.quicktime.artist"],
  date: ["©day", "date_released", "date_recorded", "date", "com.apple.quicktime.creationdate"],
} as const;

/**
 * Normalises container tags (mediabunny's raw iTunes/QuickTime atoms or Matroska SimpleTags)
 * into MediaTags; the Matroska Segment title fills in when no TITLE tag exists.
 */
export function toMediaTags(tags: MetadataTags, segmentTitle?: string): MediaTags {
  const raw = new Map<string, string>();
  for (const [key, value] of Object.entries(tags.raw ?? {})) {
    const text = typeof value === "string" ? value : Array.isArray(value) ? value.join(", ") : "";
    // Images, attachments and QuickTime `udta` box dumps are not text tags.
    if (text.trim() !== "") raw.set(key.toLowerCase(), text.trim());
  }
  const pick = (names: readonly string[]) =>
    names.map((name) => raw.get(name)).find((value) => value !== undefined);
  const used = new Set<string>(Object.values(SOURCES).flat());

  const keywordText = SOURCES.keywords.map((name) => raw.get(name) ?? "").join(",");
  const keywords = [
    ...new Set(
      keywordText
        .split(/[,;]/)
        .map((word) => word.trim())
        .filter((word) => word !== ""),
    ),
  ];
  const result: MediaTags = { keywords, other: {} };
  const fields: [Exclude<keyof MediaTags, "keywords" | "other">, string | undefined][] = [
    ["title", pick(SOURCES.title) ?? tags.title ?? segmentTitle],
    ["description", pick(SOURCES.description) ?? tags.description],
    ["comment", pick(SOURCES.comment) ?? tags.comment],
    ["artist", pick(SOURCES.artist) ?? tags.artist],
    ["date", pick(SOURCES.date) ?? tags.date?.toISOString()],
  ];
  for (const [field, value] of fields) {
    const text = value?.trim();
    if (text) result[field] = text;
  }
  for (const [key, value] of raw) {
    if (!used.has(key)) result.other[key] = value;
  }
  return result;
}

/**
 * The embedded cover: an MP4 `covr` image, or a Matroska image attachment whose file name
 * starts with "cover" (the Matroska attachment naming convention).
 */
export function pickCoverArt(tags: MetadataTags): MediaProbe["coverArt"] {
  const cover = (tags.images ?? []).find(
    (image) =>
      image.mimeType.startsWith("image/") &&
      (image.kind === "coverFront" || (image.name ?? "").toLowerCase().startsWith("cover")),
  );
  // A copy, so the probe result does not pin a larger buffer the image was sliced from.
  return cover ? { contentType: cover.mimeType, bytes: cover.data.slice() } : null;
}
