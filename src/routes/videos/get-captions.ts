import type { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "@hono/zod-openapi";
import { findVideo } from "../../db/repos/videos";
import { notFound } from "../../errors/api-error";
import type { HonoEnv } from "../../middleware/hono-env";
import { formatCaptions } from "../../services/captions/format";
import { heardCues, heardTrackIn } from "../../services/captions/heard";
import { alphaRoute } from "../define";
import { CAPTION_CONTENT_TYPES, CaptionParamsSchema } from "./captions-schemas";

const route = alphaRoute(
  { permission: "READ_VIDEOS" },
  {
    method: "get",
    operationId: "getCaptions",
    path: "/videos/{video_id}/captions/{language}",
    tags: ["Videos"],
    summary: "Get what was heard in a language",
    description:
      "The transcript the video's index holds in a language, as WebVTT (`format=srt` for SRT): the captions uploaded in that exact tag, else the first of the same language among uploaded captions, the file's own caption tracks and recognised speech (GET /videos/{video_id}/captions lists them). Cue text is plain: styling is not kept. A language the index holds no transcript in answers 404.",
    request: {
      params: CaptionParamsSchema,
      query: z.object({
        format: z.enum(["webvtt", "srt"]).default("webvtt").openapi({
          description: "`webvtt` (text/vtt) or `srt` (application/x-subrip)",
          example: "webvtt",
        }),
      }),
    },
    responses: {
      200: {
        description: "The transcript as a caption file",
        content: {
          [CAPTION_CONTENT_TYPES.webvtt]: {
            schema: z.string().openapi({
              example: "WEBVTT\n\n1\n00:00:01.000 --> 00:00:03.000\nThe forklift is parked.\n",
            }),
          },
          [CAPTION_CONTENT_TYPES.srt]: {
            schema: z.string().openapi({
              example: "1\n00:00:01,000 --> 00:00:03,000\nThe forklift is parked.\n",
            }),
          },
        },
      },
    },
  },
);

/** GET /videos/{video_id}/captions/{language} */
export function registerGetCaptions(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { video_id, language } = c.req.valid("param");
    const { format } = c.req.valid("query");
    const video = await findVideo(c.var.deps.db, c.var.auth.workspaceId, video_id);
    if (!video) throw notFound("Video", video_id);
    const track = heardTrackIn(video, language);
    if (!track) throw notFound(`Captions in ${language} of video`, video_id);
    const cues = await heardCues(c.var.deps, video.id, track.source);
    return c.body(formatCaptions(format, cues), 200, {
      "content-type": `${CAPTION_CONTENT_TYPES[format]}; charset=utf-8`,
      "content-language": track.language === "und" ? language : track.language,
    });
  });
}
