import type { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "@hono/zod-openapi";
import { findVideo } from "../../db/repos/videos";
import { notFound } from "../../errors/api-error";
import type { HonoEnv } from "../../middleware/hono-env";
import { idParam } from "../../schemas/common";
import { thumbnailUrl } from "../../services/media/urls";
import { presentVideo } from "../../services/presenters/video";
import { videoUsage } from "../../services/usage/report";
import { alphaRoute } from "../define";
import { VideoSchema } from "./schemas";

const route = alphaRoute(
  { permission: "READ_VIDEOS" },
  {
    method: "get",
    operationId: "getVideo",
    path: "/videos/{video_id}",
    tags: ["Videos"],
    summary: "Get a video",
    description: "One video with its processing status; poll it after completing an upload.",
    request: {
      params: z.object({ video_id: idParam("video_id", "vid_01jd3m6t8y0c7x4k2n9q5r1s3v") }),
    },
    responses: {
      200: { description: "The video", content: { "application/json": { schema: VideoSchema } } },
    },
  },
);

/** GET /videos/{video_id} */
export function registerGetVideo(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { video_id } = c.req.valid("param");
    const row = await findVideo(c.var.deps.db, c.var.auth.workspaceId, video_id);
    if (!row) throw notFound("Video", video_id);
    return c.json(
      presentVideo(row, {
        thumbnailUrl: await thumbnailUrl(c.var.ports, row, new URL(c.req.url).origin),
        usage: await videoUsage(c.var.deps, row.id),
      }),
      200,
    );
  });
}
