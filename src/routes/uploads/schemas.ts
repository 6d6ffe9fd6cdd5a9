import { z } from "@hono/zod-openapi";
import { ApiError } from "../../errors/api-error";
import { idParam, type SameShape, TimestampSchema } from "../../schemas/common";
import type { UploadSessionDto } from "../../services/presenters/upload-session";
import type { SessionResult } from "../../services/uploads";
import { OPEN_SESSION_EXAMPLE } from "./examples";

/** The `video_id` path parameter. */
export const VideoIdParamsSchema = z.object({
  video_id: idParam("video_id", "vid_01jd3m6t8y0c7x4k2n9q5r1s3v"),
});

/** A presigned storage target (the spec's Upload session section). */
export const TargetSchema = z
  .object({
    method: z.literal("put").openapi({ description: "HTTP method to send the bytes with" }),
    url: z.string().openapi({
      description: "Presigned URL; PUT the bytes here and read the ETag response header",
    }),
    headers: z
      .record(z.string(), z.string())
      .openapi({ description: "Headers to send with the PUT" }),
    part_number: z
      .number()
      .int()
      .openapi({ description: "The part this target is for (1 for direct uploads)", example: 1 }),
    expires_at: TimestampSchema.openapi({
      description: "The URL stops working at this time (1 hour)",
    }),
  })
  .openapi("StorageTarget");

/** An upload session (the spec's Upload session section). */
export const UploadSessionSchema = z
  .object({
    video_id: z.string().openapi({ example: "vid_01jd3m6t8y0c7x4k2n9q5r1s3v" }),
    filename: z.string().openapi({ example: "warehouse-walkthrough.mp4" }),
    content_type: z
      .string()
      .openapi({ description: "Derived from the filename", example: "video/mp4" }),
    state: z.enum(["open", "completed", "aborted", "expired"]).openapi({
      description:
        "`open` while usable; `completed` once verified; `aborted` after abort; `expired` after 24 hours",
    }),
    strategy: z
      .enum(["direct", "multipart"])
      .openapi({ description: "Selected by the server: direct up to 200 MiB" }),
    file_size: z.number().int().openapi({ description: "Bytes", example: 734003200 }),
    chunk_size: z
      .number()
      .int()
      .openapi({ description: "Bytes per part (10485760 for multipart)", example: 10485760 }),
    total_chunks: z.number().int().openapi({ example: 70 }),
    completed_parts: z.number().int().openapi({
      description: "Parts recorded (receipts; completion checks them against storage)",
    }),
    received_parts: z
      .array(z.number().int())
      .openapi({ description: "Part numbers recorded, ascending" }),
    uploaded_bytes: z
      .number()
      .int()
      .openapi({ description: "Bytes storage confirmed for recorded parts" }),
    reported_bytes: z
      .number()
      .int()
      .openapi({ description: "Bytes the recorded receipts account for" }),
    verified_bytes: z
      .number()
      .int()
      .openapi({ description: "Bytes verified at completion (file_size once completed)" }),
    expires_at: TimestampSchema.openapi({ description: "The session expires at this time" }),
    target: TargetSchema.optional().openapi({
      description: "The first target still to upload (when targets were minted)",
    }),
    targets: z
      .array(TargetSchema)
      .openapi({ description: "Targets minted by this call; empty on reads" }),
  })
  .openapi("UploadSession", { example: OPEN_SESSION_EXAMPLE });

/** The wire type of an upload session. */
export type { UploadSessionDto } from "../../services/presenters/upload-session";

/** Fails to compile when the documented schema and the presenter's type drift apart. */
export const UPLOAD_SESSION_SCHEMA_MATCHES_PRESENTER: SameShape<
  z.infer<typeof UploadSessionSchema>,
  UploadSessionDto
> = true;

/** Unwraps a session operation, turning refusals into problem documents. */
export function unwrap(result: SessionResult): Extract<SessionResult, { ok: true }> {
  if (!result.ok)
    throw new ApiError(result.code, result.detail, result.errors ? { errors: result.errors } : {});
  return result;
}
