import type { OpenAPIHono } from "@hono/zod-openapi";
import type { HonoEnv } from "../../middleware/hono-env";
import { presentSession } from "../../services/presenters/upload-session";
import { alphaRoute } from "../define";
import { UploadSessionSchema, unwrap, VideoIdParamsSchema } from "./schemas";

const route = alphaRoute(
  { permission: "UPLOAD_VIDEOS" },
  {
    method: "get",
    operationId: "getUpload",
    path: "/videos/{video_id}/upload",
    tags: ["Videos"],
    summary: "Read upload progress",
    description:
      "The upload session with its persisted progress, for resuming from another client. Read-only: it neither mints targets nor changes the session.",
    request: { params: VideoIdParamsSchema },
    responses: {
      200: {
        description: "The upload session",
        content: { "application/json": { schema: UploadSessionSchema } },
      },
    },
  },
);

/** GET /videos/{video_id}/upload */
export function registerGetUpload(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { video_id } = c.req.valid("param");
    const result = unwrap(
      await c.env.UPLOAD_SESSIONS.getByName(video_id).view(c.var.auth.workspaceId),
    );
    return c.json(presentSession(result.session, result.parts, null), 200);
  });
}
