import { z } from "@hono/zod-openapi";
import { AsyncErrorSchema, type SameShape, TimestampSchema } from "../../schemas/common";
import type { VideoDto } from "../../services/presenters/video";
import { VideoUsageSchema } from "../usage/schemas";
import { COMPLETED_VIDEO_EXAMPLE } from "./examples";

/** Video statuses of the spec's Video section. */
export const VIDEO_STATUSES = ["queued", "processing", "completed", "failed"] as const;

const ShareSchema = {
  seconds: z.number().openapi({ description: "Seconds of the video inspected", example: 23.5 }),
  share: z
    .number()
    .openapi({ description: "Those seconds' share of the duration, 0-1", example: 0.979 }),
};

const ExtentSchema = z
  .object({
    transcript: z.array(
      z.object({
        origin: z
          .enum(["captions", "speech"])
          .openapi({ description: "Captions (a track of the file or uploaded) or speech to text" }),
        source: z.string().openapi({ description: "Evidence source", example: "text-track:0:eng" }),
        language: z.string().nullable().openapi({
          description: "ISO 639-1 where known (tag, or detected); null when it cannot be told",
          example: "en",
        }),
        ...ShareSchema,
      }),
    ),
    scene: z.object(ShareSchema).openapi({ description: "Frames sampled × their spacing" }),
    ocr: z.object(ShareSchema).openapi({ description: "Frames read for on-screen text" }),
    speech: z
      .object({
        source: z.string().openapi({ description: "The speech detector", example: "silero-vad@5" }),
        inspected: z.object(ShareSchema).openapi({ description: "Audio the detector inspected" }),
        speech_seconds: z.number().openapi({
          description: "Seconds with speech in them, transcribed or not",
          example: 13.1,
        }),
        spans: z.array(z.object({ start: z.number(), end: z.number() })).openapi({
          description: "Stretches with speech, in seconds",
          example: [{ start: 4, end: 10.2 }],
        }),
      })
      .optional()
      .openapi({
        description:
          "Where a speech detector found speech (local adapters with the screen reader only)",
      }),
  })
  .openapi({
    description:
      "Per evidence kind, how much of the video was inspected; an answer's absence needs 95 % in the run's locale",
  });

const UnderstoodSchema = z
  .object({
    heard_seconds: z.number().openapi({
      description:
        "Seconds whose speech is known: the longest caption track, or the audio speech recognition transcribed",
      example: 23.5,
    }),
    seen_seconds: z.number().openapi({
      description: "Seconds whose pictures were described (frames sampled × their spacing)",
      example: 0,
    }),
    heard_from: z.array(z.string()).openapi({
      description:
        "Evidence sources of the heard seconds: `text-track:<index>[:<language>]` (a track of the file), `captions-uploaded:<language>` (PUT …/captions/{language}), `whisper[:<language>]`",
      example: ["text-track:0:eng"],
    }),
    speech_seconds: z.number().optional().openapi({
      description:
        "Seconds in which a speech detector found speech, transcribed or not (local adapters with the screen reader only)",
      example: 13.1,
    }),
    summary: z.string().openapi({
      description: "What was heard and seen, and from where, in plain words",
      example:
        "Heard 23.5 s of 24 s from text track 0 (eng). Saw nothing: on-screen text was not read (the screen reader was not running), and this service's media engine does not describe pictures.",
    }),
    warning: z.string().optional().openapi({
      description:
        "Present when nothing was heard or seen: what that means for search and runs, and what to do",
      example:
        "Nothing in this video was heard or seen, so search finds it only by its filename, title and tags, and every rule or answer about it is not checked. Add a caption or subtitle track to the file …",
    }),
  })
  .openapi("VideoUnderstanding", {
    description:
      "What processing understood of the video. The local media engine reads caption and subtitle tracks, container tags, cover art and, when its screen reader runs, text written on screen; it hears no speech and does not describe pictures.",
  });

/** A video (the spec's Video section). */
export const VideoSchema = z
  .object({
    id: z.string().openapi({
      description: "Public id, used as video_id",
      example: "vid_01jd3m6t8y0c7x4k2n9q5r1s3v",
    }),
    filename: z.string().openapi({ example: "warehouse-walkthrough.mp4" }),
    status: z.enum(VIDEO_STATUSES).openapi({
      description:
        "queued (waiting), processing (extracting, analyzing or indexing), completed (searchable), failed",
    }),
    progress: z
      .number()
      .min(0)
      .max(100)
      .openapi({ description: "Processing progress in percent, 0-100", example: 100 }),
    duration: z
      .number()
      .optional()
      .openapi({ description: "Duration in seconds, measured during processing", example: 61.44 }),
    frame_count: z
      .number()
      .int()
      .optional()
      .openapi({ description: "Video frames, measured during processing", example: 1536 }),
    source: z
      .string()
      .openapi({ description: "How the video arrived: `upload`", example: "upload" }),
    thumbnail_url: z.string().optional().openapi({
      description: "Signed, expiring thumbnail URL (single-video and complete responses)",
    }),
    error: AsyncErrorSchema.optional().openapi({ description: "Why processing failed" }),
    error_message: z
      .string()
      .optional()
      .openapi({ description: "Deprecated: the error's detail as text" }),
    media: z
      .object({
        coverage: ExtentSchema,
        understood: UnderstoodSchema.optional(),
        limitations: z
          .array(z.string())
          .optional()
          .openapi({
            description:
              "What the media engine could not extract, as codes (docs/media-understanding.md), e.g. `no-timed-text`, `no-speech-recognition`, `no-visual-analysis`",
            example: ["no-speech-recognition", "no-visual-analysis"],
          }),
      })
      .optional()
      .openapi({ description: "What processing inspected, once it has (absent before)" }),
    request_id: z.string().optional().openapi({
      description:
        "The request that created the video (the `X-Request-Id` of its POST /videos); absent on videos created before requests were recorded",
      example: "4bf92f35-77b3-4da6-a3ce-929d0e0e4736",
    }),
    usage: VideoUsageSchema.optional().openapi({
      description:
        "On GET /videos/{video_id}: what processing the video used, in seconds and model calls; the workspace's totals are GET /usage",
    }),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .openapi("Video", { example: COMPLETED_VIDEO_EXAMPLE });

/** The wire type of a video; the service's presenter must produce exactly this. */
export type { VideoDto } from "../../services/presenters/video";

/** Fails to compile when the documented schema and the presented type drift apart. */
export const VIDEO_SCHEMA_MATCHES_PRESENTER: SameShape<
  z.infer<typeof VideoSchema>,
  VideoDto
> = true;
