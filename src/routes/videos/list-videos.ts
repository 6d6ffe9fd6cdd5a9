import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { database } from "../../db/client";
import { listVideos } from "../../db/repos/videos";
import { pageQuery, toPage } from "../../lib/pagination";
import { signingSecret } from "../../lib/secrets";
import type { HonoEnv } from "../../middleware/hono-env";
import { PageQuerySchema, pageSchema } from "../../schemas/page";
import { alphaRoute } from "../define";
import { presentVideo, VIDEO_STATUSES, VideoSchema } from "./schemas";

const route = alphaRoute(
  { permission: "READ_VIDEOS" },
  {
    method: "get",
    path: "/videos",
    tags: ["Videos"],
    summary: "List videos",
    description: "The workspace's videos, newest first.",
    request: {
      query: PageQuerySchema.extend({
        status: z
          .enum(VIDEO_STATUSES)
          .optional()
          .openapi({ description: "Only videos in this status; omit for all" }),
      }),
    },
    responses: {
      200: {
        description: "A page of videos",
        content: { "application/json": { schema: pageSchema(VideoSchema, "VideoPage") } },
      },
    },
  },
);

/** GET /videos */
export function registerListVideos(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const { workspaceId } = c.var.auth;
    const list = {
      secret: signingSecret(c.env),
      scope: `videos|${workspaceId}|${query.status ?? ""}`,
    };
    const page = await pageQuery(list, query);
    const rows = await listVideos(database(c.env.DB), workspaceId, { status: query.status }, page);
    return c.json(
      await toPage(
        list,
        rows,
        page.limit,
        (row) => [row.id],
        (row) => presentVideo(row),
      ),
      200,
    );
  });
}
