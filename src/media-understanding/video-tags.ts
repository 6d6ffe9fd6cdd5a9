import type { EvidenceSpan } from "../domain/evidence";
import type { MediaTags } from "../domain/media";

// Title words that say nothing about the content; kept short on purpose (English only).
const STOP_WORDS = new Set([
  "the",
  "and",
  "for",
  "with",
  "from",
  "this",
  "that",
  "into",
  "your",
  "our",
  "are",
  "was",
  "you",
  "how",
  "what",
  "part",
  "video",
  "final",
  "copy",
]);

const MAX_TAG_LENGTH = 64;

/** A tag as stored: NFKC, lowercase, single spaces; null when empty or too long. */
export function normalizeTag(raw: string): string | null {
  const tag = raw.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
  return tag === "" || tag.length > MAX_TAG_LENGTH ? null : tag;
}

/**
 * Video-level tags the container itself states: every keyword (split on `,` and `;`), then
 * the title's content words (3+ letters, not a number, not a stop word).
 */
export function containerTags(tags: MediaTags): string[] {
  const keywords = tags.keywords.flatMap((k) => k.split(/[,;]/));
  const titleWords = (tags.title ?? "")
    .split(/[^\p{L}\p{N}'-]+/u)
    .map((w) => w.replace(/^['-]+|['-]+$/g, ""))
    .map(normalizeTag)
    .filter((w) => w !== null && [...w].length >= 3 && !/^\p{N}+$/u.test(w) && !STOP_WORDS.has(w));
  return unique([...keywords.map(normalizeTag), ...titleWords]);
}

/** `lang:<code>` for each known language, in first-seen order. */
export function languageTags(languages: Iterable<string | null>): string[] {
  return unique([...languages].map((l) => (l ? `lang:${l}` : null)));
}

/** The candidate tags that occur as whole words in the text (case-insensitive). */
export function mentionedTags(candidates: readonly string[], text: string): string[] {
  if (text === "") return [];
  const haystack = text.normalize("NFKC").toLowerCase().replace(/\s+/g, " ");
  return candidates.filter((tag) => {
    const escaped = tag.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, "u").test(haystack);
  });
}

/** Non-null values once each, in first-seen order. */
export function unique(values: Iterable<string | null | undefined>): string[] {
  const seen = new Set<string>();
  for (const v of values) if (v) seen.add(v);
  return [...seen];
}

/**
 * One metadata span per textual container tag, covering the whole video, so search and
 * answers can cite the container as the source of a title or keyword.
 */
export function metadataEvidence(tags: MediaTags, duration: number): EvidenceSpan[] {
  const entries: [string, string | undefined][] = [
    ["title", tags.title],
    ["description", tags.description],
    ["comment", tags.comment],
    ["keywords", tags.keywords.length > 0 ? tags.keywords.join(", ") : undefined],
    ["artist", tags.artist],
    ["date", tags.date],
    ...Object.keys(tags.other)
      .sort()
      .map((k): [string, string | undefined] => [k, tags.other[k]]),
  ];
  const end = Math.max(0, duration);
  return entries.flatMap(([name, value]) => {
    const text = value?.replace(/\s+/g, " ").trim() ?? "";
    if (text === "") return [];
    const span: EvidenceSpan = {
      kind: "metadata",
      start: 0,
      end,
      text: `${name}: ${text}`,
      source: `container-tags:${name}`,
    };
    return [span];
  });
}
