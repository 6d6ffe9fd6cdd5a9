import type { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "@hono/zod-openapi";
import { ApiError } from "../../errors/api-error";
import type { HonoEnv } from "../../middleware/hono-env";
import { putCaptions } from "../../services/captions/put";
import { alphaRoute } from "../define";
import {
  CAPTION_CONTENT_TYPES,
  CAPTION_FILE_MAX_BYTES,
  CaptionParamsSchema,
  CaptionUploadSchema,
} from "./captions-schemas";

const route = alphaRoute(
  { permission: "UPLOAD_VIDEOS", errors: [409] },
  {
    method: "put",
    operationId: "putCaptions",
    path: "/videos/{video_id}/captions/{language}",
    tags: ["Videos"],
    summary: "Upload captions for a video",
    description: `Sends a caption file for a completed video and re-indexes it: its cues become heard evidence with source \`captions-uploaded:{language}\`, found by search and cited by answers like the file's own captions. The content type decides the format: \`text/vtt\` (WebVTT) or \`application/x-subrip\` (SRT); UTF-8, at most ${CAPTION_FILE_MAX_BYTES} bytes (1 MiB, 413 beyond). A malformed file answers 400 naming the line. A second file in the same language replaces the uploaded one; the video's own caption tracks stay. Answers 202: the video is \`processing\` until the new index is in (poll GET /videos/{video_id}); a video not \`completed\` answers 409.`,
    request: {
      params: CaptionParamsSchema,
      body: {
        required: true,
        content: {
          [CAPTION_CONTENT_TYPES.webvtt]: {
            schema: z.string().openapi({
              example: "WEBVTT\n\n00:00:01.000 --> 00:00:03.000\nThe forklift is parked.\n",
            }),
          },
          [CAPTION_CONTENT_TYPES.srt]: {
            schema: z
              .string()
              .openapi({ example: "1\n00:00:01,000 --> 00:00:03,000\nThe forklift is parked.\n" }),
          },
        },
      },
    },
    responses: {
      202: {
        description: "The captions are kept and the video is being re-indexed",
        content: { "application/json": { schema: CaptionUploadSchema } },
      },
    },
  },
);

function formatOf(contentType: string): "webvtt" | "srt" {
  const type = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  if (type === CAPTION_CONTENT_TYPES.webvtt) return "webvtt";
  if (type === CAPTION_CONTENT_TYPES.srt) return "srt";
  throw new ApiError(
    "unsupported-media-type",
    `Send captions as ${CAPTION_CONTENT_TYPES.webvtt} (WebVTT) or ${CAPTION_CONTENT_TYPES.srt} (SRT).`,
  );
}

/** PUT /videos/{video_id}/captions/{language} */
export function registerPutCaptions(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { video_id, language } = c.req.valid("param");
    const format = formatOf(c.req.header("content-type") ?? "");
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    if (bytes.byteLength > CAPTION_FILE_MAX_BYTES) {
      throw new ApiError(
        "payload-too-large",
        `Caption files are limited to ${CAPTION_FILE_MAX_BYTES} bytes.`,
      );
    }
    const upload = await putCaptions(c.var.deps, c.var.auth, {
      videoId: video_id,
      language,
      format,
      bytes,
      requestId: c.var.requestId,
    });
    return c.json(upload, 202);
  });
}
