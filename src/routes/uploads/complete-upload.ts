import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { findVideo } from "../../db/repos/videos";
import { notFound } from "../../errors/api-error";
import type { HonoEnv } from "../../middleware/hono-env";
import { thumbnailUrl } from "../../services/media/urls";
import { presentVideo } from "../../services/presenters/video";
import { alphaRoute } from "../define";
import { QUEUED_VIDEO_EXAMPLE } from "../videos/examples";
import { VideoSchema } from "../videos/schemas";
import { unwrap, VideoIdParamsSchema } from "./schemas";

const route = alphaRoute(
  { permission: "UPLOAD_VIDEOS", errors: [409, 410] },
  {
    method: "post",
    operationId: "completeUpload",
    path: "/videos/{video_id}/upload/complete",
    tags: ["Videos"],
    summary: "Complete an upload",
    description:
      "Verifies the stored bytes against storage (the direct object's size, or every recorded part and the completed object's size) and starts processing exactly once. Missing parts answer 409 `upload-incomplete`, a wrong byte count 409 `upload-size-mismatch`, both changing nothing; an expired session answers 410 `upload-expired`. Completing again returns the same video. Then poll GET /videos/{video_id}.",
    request: {
      params: VideoIdParamsSchema,
      body: {
        required: false,
        content: {
          "application/json": { schema: z.strictObject({}).openapi("CompleteUploadRequest") },
        },
      },
    },
    responses: {
      200: {
        description: "The video, queued for processing",
        content: { "application/json": { schema: VideoSchema, example: QUEUED_VIDEO_EXAMPLE } },
      },
    },
  },
);

/** POST /videos/{video_id}/upload/complete */
export function registerCompleteUpload(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { video_id } = c.req.valid("param");
    const { workspaceId } = c.var.auth;
    unwrap(await c.env.UPLOAD_SESSIONS.getByName(video_id).complete(workspaceId, c.var.requestId));
    const video = await findVideo(c.var.deps.db, workspaceId, video_id);
    if (!video) throw notFound("Video", video_id);
    return c.json(
      presentVideo(video, {
        thumbnailUrl: await thumbnailUrl(c.var.ports, video, new URL(c.req.url).origin),
      }),
      200,
    );
  });
}
