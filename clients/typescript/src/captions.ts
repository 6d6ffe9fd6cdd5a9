import type { Client } from "openapi-fetch";
import type { paths } from "./generated/openapi.js";
import { unwrap } from "./http.js";

/** The caption file formats the service reads and writes. */
export type CaptionFormat = "webvtt" | "srt";

/** The content type of each caption format, as the service names them. */
export const CAPTION_CONTENT_TYPES: Record<CaptionFormat, string> = {
  webvtt: "text/vtt",
  srt: "application/x-subrip",
};

const ONE = "/videos/{video_id}/captions/{language}";

/** The format a caption file's name says (`.vtt`, `.srt`), or null. */
export function captionFormatOf(filename: string): CaptionFormat | null {
  const lower = filename.toLowerCase();
  if (lower.endsWith(".vtt")) return "webvtt";
  if (lower.endsWith(".srt")) return "srt";
  return null;
}

/** The transcripts a video's index holds, with language and origin. */
export function listCaptions(api: Client<paths>, videoId: string) {
  return unwrap(
    api.GET("/videos/{video_id}/captions", { params: { path: { video_id: videoId } } }),
    "GET /videos/{video_id}/captions",
  );
}

/** What was heard in a language, as a WebVTT or SRT file's text. */
export function getCaptions(
  api: Client<paths>,
  videoId: string,
  language: string,
  format: CaptionFormat = "webvtt",
): Promise<string> {
  return unwrap(
    api.GET(ONE, {
      params: { path: { video_id: videoId, language }, query: { format } },
      parseAs: "text",
    }),
    `GET ${ONE}`,
  );
}

/** Sends a caption file for a completed video; the video is re-indexed with it. */
export function putCaptions(
  api: Client<paths>,
  videoId: string,
  language: string,
  file: string,
  format: CaptionFormat,
) {
  return unwrap(
    api.PUT(ONE, {
      params: { path: { video_id: videoId, language } },
      body: file,
      bodySerializer: (body: string) => body,
      headers: { "content-type": CAPTION_CONTENT_TYPES[format] },
    }),
    `PUT ${ONE}`,
  );
}
