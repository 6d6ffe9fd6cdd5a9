import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { listVideos } from "../../db/repos/videos";
import { listScope, pageQuery, toPage } from "../../lib/pagination";
import type { HonoEnv } from "../../middleware/hono-env";
import { PageQuerySchema, pageSchema } from "../../schemas/page";
import { presentVideo } from "../../services/presenters/video";
import { alphaRoute } from "../define";
import { VIDEO_STATUSES, VideoSchema } from "./schemas";

const route = alphaRoute(
  { permission: "READ_VIDEOS" },
  {
    method: "get",
    operationId: "listVideos",
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
    const list = listScope(c.var.deps.secrets.signing(), "videos", workspaceId, query.status);
    const page = await pageQuery(list, query);
    const rows = await listVideos(c.var.deps.db, workspaceId, { status: query.status }, page);
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
