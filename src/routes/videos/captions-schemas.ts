import { z } from "@hono/zod-openapi";
import { idParam, type SameShape } from "../../schemas/common";
import type { HeardTrack } from "../../services/captions/heard";
import type { CaptionUpload } from "../../services/captions/put";

/** Caption files are limited to the API's body limit, 1 MiB: hours of dense subtitles. */
export const CAPTION_FILE_MAX_BYTES = 1024 * 1024;

/** The content types a caption file is sent and answered in, by format. */
export const CAPTION_CONTENT_TYPES = {
  webvtt: "text/vtt",
  srt: "application/x-subrip",
} as const;

const ORIGINS = ["captions-uploaded", "captions-container", "speech"] as const;

function canonicalTag(tag: string): string | null {
  // BCP 47 syntax first: Intl alone would also take Unicode extensions a caption track never has.
  if (!/^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*$/.test(tag)) return null;
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? null;
  } catch {
    return null;
  }
}

/** The path parameters of one language's captions: a well-formed BCP 47 tag, canonicalised. */
export const CaptionParamsSchema = z.object({
  video_id: idParam("video_id", "vid_01jd3m6t8y0c7x4k2n9q5r1s3v"),
  language: z
    .string()
    .max(35)
    .transform((tag, ctx) => {
      const canonical = canonicalTag(tag);
      if (canonical === null) {
        ctx.addIssue({
          code: "custom",
          message: "must be a BCP 47 language tag such as en or pt-BR",
        });
        return z.NEVER;
      }
      return canonical;
    })
    .openapi({
      param: { name: "language", in: "path" },
      description: "A BCP 47 language tag (`en`, `en-GB`, `pt-BR`); compared case-insensitively",
      example: "en",
    }),
});

/** What `PUT /videos/{video_id}/captions/{language}` answers. */
export const CaptionUploadSchema = z
  .object({
    video_id: z.string().openapi({ example: "vid_01jd3m6t8y0c7x4k2n9q5r1s3v" }),
    language: z.string().openapi({ description: "The language tag, canonicalised", example: "en" }),
    origin: z.enum(["captions-uploaded"]).openapi({ example: "captions-uploaded" }),
    format: z
      .enum(["webvtt", "srt"])
      .openapi({ description: "The format read", example: "webvtt" }),
    cue_count: z.number().int().openapi({ description: "Cues with text in the file", example: 42 }),
    status: z.enum(["processing"]).openapi({
      description: "The video is re-indexed; poll GET /videos/{video_id} until it is completed",
      example: "processing",
    }),
  })
  .openapi("CaptionUpload");

const HeardTrackSchema = z
  .object({
    language: z.string().openapi({
      description: "BCP 47 tag: as uploaded, else the language measured (`und` when unknown)",
      example: "en",
    }),
    origin: z.enum(ORIGINS).openapi({
      description:
        "`captions-uploaded`: a file sent to PUT …/captions/{language}; `captions-container`: a caption or subtitle track of the video file; `speech`: recognised from the audio",
      example: "captions-uploaded",
    }),
    source: z
      .string()
      .openapi({ description: "Evidence source of its spans", example: "captions-uploaded:en" }),
    seconds: z.number().openapi({ description: "Seconds of the video it covers", example: 23.5 }),
  })
  .openapi("CaptionTrack");

/** What `GET /videos/{video_id}/captions` answers. */
export const CaptionListSchema = z
  .object({ data: z.array(HeardTrackSchema) })
  .openapi("CaptionList");

export const CAPTION_UPLOAD_MATCHES_PRESENTER: SameShape<
  z.infer<typeof CaptionUploadSchema>,
  CaptionUpload
> = true;
export const CAPTION_TRACK_MATCHES_PRESENTER: SameShape<
  z.infer<typeof HeardTrackSchema>,
  HeardTrack
> = true;
