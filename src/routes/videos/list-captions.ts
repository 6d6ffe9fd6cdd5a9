import type { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "@hono/zod-openapi";
import { findVideo } from "../../db/repos/videos";
import { notFound } from "../../errors/api-error";
import type { HonoEnv } from "../../middleware/hono-env";
import { idParam } from "../../schemas/common";
import { heardTracks } from "../../services/captions/heard";
import { alphaRoute } from "../define";
import { CaptionListSchema } from "./captions-schemas";

const route = alphaRoute(
  { permission: "READ_VIDEOS" },
  {
    method: "get",
    operationId: "listCaptions",
    path: "/videos/{video_id}/captions",
    tags: ["Videos"],
    summary: "List the languages heard in a video",
    description:
      "Every transcript the video's index holds, with its language and origin: uploaded captions first, then the file's own caption tracks, then recognised speech. Uploaded captions appear once the re-index they started has completed.",
    request: {
      params: z.object({ video_id: idParam("video_id", "vid_01jd3m6t8y0c7x4k2n9q5r1s3v") }),
    },
    responses: {
      200: {
        description: "The transcripts heard",
        content: { "application/json": { schema: CaptionListSchema } },
      },
    },
  },
);

/** GET /videos/{video_id}/captions */
export function registerListCaptions(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { video_id } = c.req.valid("param");
    const video = await findVideo(c.var.deps.db, c.var.auth.workspaceId, video_id);
    if (!video) throw notFound("Video", video_id);
    return c.json({ data: heardTracks(video) }, 200);
  });
}
