import type { TextTrack } from "../../domain/media";
import { captionKey, captionsPrefix } from "../../lib/object-keys";
import { type CaptionFormat, parseCaptionFile } from "./parse";

/** The evidence source prefix of cues from an uploaded caption file. */
export const UPLOADED_SOURCE = "captions-uploaded";

/** The most languages a video keeps uploaded caption files for. */
export const MAX_UPLOADED_LANGUAGES = 20;

/** The evidence source of the cues uploaded for a language: `captions-uploaded:en-GB`. */
export function uploadedSource(language: string): string {
  return `${UPLOADED_SOURCE}:${language}`;
}

/** Keeps an uploaded caption file, replacing the one of its language. */
export async function storeCaptionFile(
  bucket: R2Bucket,
  videoId: string,
  language: string,
  format: CaptionFormat,
  bytes: Uint8Array,
): Promise<void> {
  await bucket.put(captionKey(videoId, language), bytes, {
    httpMetadata: { contentType: format === "webvtt" ? "text/vtt" : "application/x-subrip" },
    customMetadata: { format },
  });
}

/** The languages a video has uploaded caption files for. */
export async function uploadedLanguages(bucket: R2Bucket, videoId: string): Promise<string[]> {
  const prefix = captionsPrefix(videoId);
  const listed = await bucket.list({ prefix, limit: MAX_UPLOADED_LANGUAGES + 1 });
  return listed.objects.map((o) => o.key.slice(prefix.length));
}

/**
 * The uploaded caption files of a video as text tracks after the file's own (numbered from
 * `firstIndex`), each naming its evidence source so its cues are told from the file's.
 */
export async function uploadedTextTracks(
  bucket: R2Bucket,
  videoId: string,
  firstIndex: number,
): Promise<TextTrack[]> {
  const tracks: TextTrack[] = [];
  for (const language of (await uploadedLanguages(bucket, videoId)).sort()) {
    const object = await bucket.get(captionKey(videoId, language));
    if (!object) continue;
    const format: CaptionFormat = object.customMetadata?.format === "srt" ? "srt" : "webvtt";
    // Every stored file was parsed before it was kept, so this parse succeeds.
    const cues = parseCaptionFile(format, new Uint8Array(await object.arrayBuffer()));
    tracks.push({
      index: firstIndex + tracks.length,
      codec: format,
      language,
      source: uploadedSource(language),
      cues,
    });
  }
  return tracks;
}
