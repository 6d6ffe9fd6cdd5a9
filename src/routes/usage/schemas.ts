import { z } from "@hono/zod-openapi";
import { type SameShape, TimestampSchema } from "../../schemas/common";
import type { UsageReportDto, VideoUsageDto } from "../../services/presenters/usage";
import { DEFAULT_USAGE_DAYS, MAX_USAGE_DAYS } from "../../services/usage/report";

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Whether text is a calendar date (`YYYY-MM-DD`) that exists. */
function isDay(text: string): boolean {
  if (!DAY.test(text)) return false;
  const parsed = Date.parse(`${text}T00:00:00Z`);
  return Number.isFinite(parsed) && new Date(parsed).toISOString().startsWith(text);
}

/** A date, or an RFC 3339 date-time, as the UTC day it falls on. */
const DayParamSchema = z
  .union([z.string().refine(isDay), TimestampSchema], {
    error:
      "must be a date (YYYY-MM-DD) or an RFC 3339 date-time, such as 2026-11-21 or 2026-11-21T09:30:00Z",
  })
  .transform((text) => (isDay(text) ? text : new Date(text).toISOString().slice(0, 10)))
  .optional();

/** The query of GET /usage and GET /admin/v1/workspaces/{id}/usage. */
export const UsageQuerySchema = z.object({
  from: DayParamSchema.openapi({
    description: `First day of the report (UTC), included: a date, or a date-time, which counts as the UTC day it falls on. Default: ${DEFAULT_USAGE_DAYS - 1} days before \`to\`.`,
    example: "2026-11-01",
  }),
  to: DayParamSchema.openapi({
    description: `Last day of the report (UTC), included; at most ${MAX_USAGE_DAYS} days after \`from\`. Default: today.`,
    example: "2026-11-30",
  }),
  granularity: z.enum(["day", "month"]).default("day").openapi({
    description: "One entry per day, or per calendar month (the first and last cut to the range)",
  }),
});

const ModelUsageSchema = z
  .object({
    model: z.string().openapi({ example: "@cf/meta/llama-4-scout-17b-16e-instruct" }),
    calls: z.number().int().openapi({ description: "Calls the model answered", example: 6 }),
    input_tokens: z
      .number()
      .int()
      .openapi({ description: "Prompt tokens, as the model reported them", example: 1458 }),
    output_tokens: z
      .number()
      .int()
      .openapi({ description: "Completion tokens, as the model reported them", example: 312 }),
    audio_seconds: z.number().openapi({
      description: "Seconds of audio sent to speech recognition (its billed unit)",
      example: 0,
    }),
  })
  .openapi("ModelUsage");

const videoUsageFields = {
  processed_seconds: z.number().openapi({
    description: "Seconds of video whose processing completed (a re-processing counts again)",
    example: 24,
  }),
  heard_seconds: z.number().openapi({
    description:
      "Seconds in which speech recognition heard speech (captions read from the file or uploaded cost no model and are not counted)",
    example: 23.5,
  }),
  seen_seconds: z.number().openapi({
    description: "Seconds of video whose sampled frames a vision model described",
    example: 24,
  }),
  models: z.array(ModelUsageSchema).openapi({
    description: "Model calls and tokens, one entry per model used, sorted by model",
  }),
};

/** What processing one video used (`usage` on GET /videos/{video_id}). */
export const VideoUsageSchema = z.object(videoUsageFields).openapi("VideoUsage", {
  description:
    "What processing the video used, counted once per window of work and per completion, whatever the retries",
});

const UsagePeriodSchema = z
  .object({
    start: z.string().openapi({ description: "First day (UTC), included", example: "2026-11-01" }),
    end: z.string().openapi({ description: "Last day (UTC), included", example: "2026-11-01" }),
    videos_uploaded: z
      .number()
      .int()
      .openapi({ description: "Uploads completed (bytes verified)", example: 3 }),
    bytes_stored: z.number().int().openapi({
      description: "Bytes of uploaded source files stored at the end of the period",
      example: 73400320,
    }),
    bytes_stored_peak: z.number().int().openapi({
      description: "The most bytes of source files stored at any moment of the period",
      example: 94371840,
    }),
    ...videoUsageFields,
    searches: z
      .number()
      .int()
      .openapi({ description: "POST /search requests answered", example: 12 }),
    runs: z
      .number()
      .int()
      .openapi({ description: "Runs created (POST /runs accepted)", example: 2 }),
    findings: z.number().int().openapi({ description: "Findings workflow runs made", example: 40 }),
    webhook_attempts: z
      .number()
      .int()
      .openapi({ description: "Webhook requests made to endpoints, retries included", example: 5 }),
    webhook_deliveries: z
      .number()
      .int()
      .openapi({ description: "Webhook deliveries an endpoint accepted (2xx)", example: 4 }),
  })
  .openapi("UsagePeriod");

/** A workspace's usage over a range (GET /usage). */
export const UsageReportSchema = z
  .object({
    workspace_id: z.string().openapi({ example: "ws_01jd3m6t8y0c7x4k2n9q5r1s3v" }),
    from: z.string().openapi({ example: "2026-11-01" }),
    to: z.string().openapi({ example: "2026-11-30" }),
    granularity: z.enum(["day", "month"]),
    bytes_stored_now: z.number().int().openapi({
      description: "Bytes of uploaded source files stored as this report is read",
      example: 73400320,
    }),
    data: z.array(UsagePeriodSchema).openapi({
      description:
        "One entry per period in time order, none left out: a period with nothing has zeros",
    }),
    totals: UsagePeriodSchema.openapi({
      description:
        "The whole range: counters added up, bytes_stored at its end, bytes_stored_peak its highest",
    }),
  })
  .openapi("UsageReport");

/** Fails to compile when the documented schema and the presented type drift apart. */
export const USAGE_REPORT_MATCHES_PRESENTER: SameShape<
  z.infer<typeof UsageReportSchema>,
  UsageReportDto
> = true;

/** Fails to compile when the documented schema and the presented type drift apart. */
export const VIDEO_USAGE_MATCHES_PRESENTER: SameShape<
  z.infer<typeof VideoUsageSchema>,
  VideoUsageDto
> = true;
