import { listSegments } from "../../db/repos/segments";
import type { VideoRow } from "../../db/repos/videos";
import type { TextExtent } from "../../domain/evidence";
import { sameLanguage } from "../../lib/text/language";
import type { CaptionCue } from "./parse";
import { UPLOADED_SOURCE } from "./uploaded";

/** Where a language's transcript came from. */
export type CaptionOrigin = "captions-uploaded" | "captions-container" | "speech";

/** One transcript the index holds: a language and the source it was heard from. */
export interface HeardTrack {
  /** BCP 47 tag: as uploaded, else the language the index measured; `und` when unknown. */
  language: string;
  origin: CaptionOrigin;
  /** Evidence source of its spans, e.g. `captions-uploaded:en`, `text-track:0:eng`. */
  source: string;
  /** Seconds of the video it covers. */
  seconds: number;
}

const UPLOADED_PREFIX = `${UPLOADED_SOURCE}:`;
const ORIGIN_RANK: Record<CaptionOrigin, number> = {
  "captions-uploaded": 0,
  "captions-container": 1,
  speech: 2,
};

function heardTrack(extent: TextExtent): HeardTrack {
  if (extent.source.startsWith(UPLOADED_PREFIX)) {
    return {
      language: extent.source.slice(UPLOADED_PREFIX.length),
      origin: "captions-uploaded",
      source: extent.source,
      seconds: extent.seconds,
    };
  }
  return {
    language: extent.language ?? "und",
    origin: extent.origin === "speech" ? "speech" : "captions-container",
    source: extent.source,
    seconds: extent.seconds,
  };
}

/** The transcripts a video's index holds, uploaded captions first, then the file's, then speech. */
export function heardTracks(video: Pick<VideoRow, "media">): HeardTrack[] {
  const extents = video.media?.extent?.transcript ?? [];
  return extents
    .filter((extent) => extent.seconds > 0)
    .map(heardTrack)
    .sort((a, b) => ORIGIN_RANK[a.origin] - ORIGIN_RANK[b.origin]);
}

/**
 * The transcript heard in `language`: the uploaded captions of that exact tag, else the first
 * track of the same base language (uploaded, then the file's own, then recognised speech).
 */
export function heardTrackIn(video: Pick<VideoRow, "media">, language: string): HeardTrack | null {
  const tracks = heardTracks(video);
  const exact = tracks.find(
    (t) => t.origin === "captions-uploaded" && t.language.toLowerCase() === language.toLowerCase(),
  );
  return exact ?? tracks.find((t) => sameLanguage(t.language, language)) ?? null;
}

/**
 * The cues of one transcript source as the index holds them, in time order. A cue spanning a
 * segment boundary is stored in both segments and is given once.
 */
export async function heardCues(
  deps: { db: Parameters<typeof listSegments>[0] },
  videoId: string,
  source: string,
): Promise<CaptionCue[]> {
  const seen = new Set<string>();
  const cues: CaptionCue[] = [];
  for (const segment of await listSegments(deps.db, videoId)) {
    for (const span of segment.evidence) {
      if (span.kind !== "transcript" || span.source !== source) continue;
      const key = `${span.start}|${span.end}|${span.text}`;
      if (seen.has(key)) continue;
      seen.add(key);
      cues.push({ start: span.start, end: span.end, text: span.text });
    }
  }
  return cues.sort((a, b) => a.start - b.start || a.end - b.end);
}
