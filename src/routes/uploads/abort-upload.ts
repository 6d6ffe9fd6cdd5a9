import type { OpenAPIHono } from "@hono/zod-openapi";
import type { HonoEnv } from "../../middleware/hono-env";
import { presentSession } from "../../services/presenters/upload-session";
import { alphaRoute } from "../define";
import { ABORTED_SESSION_EXAMPLE } from "./examples";
import { UploadSessionSchema, unwrap, VideoIdParamsSchema } from "./schemas";

const route = alphaRoute(
  { permission: "UPLOAD_VIDEOS", errors: [409, 410] },
  {
    method: "delete",
    operationId: "abortUpload",
    path: "/videos/{video_id}/upload",
    tags: ["Videos"],
    summary: "Abort an upload",
    description:
      "Aborts the storage session (uploaded parts are discarded) and marks the session `aborted`; the video becomes `failed` with error `upload-aborted`. Every later change to the session answers 409.",
    request: { params: VideoIdParamsSchema },
    responses: {
      200: {
        description: "The aborted upload session",
        content: {
          "application/json": { schema: UploadSessionSchema, example: ABORTED_SESSION_EXAMPLE },
        },
      },
    },
  },
);

/** DELETE /videos/{video_id}/upload */
export function registerAbortUpload(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { video_id } = c.req.valid("param");
    const result = unwrap(
      await c.env.UPLOAD_SESSIONS.getByName(video_id).abort(c.var.auth.workspaceId),
    );
    return c.json(presentSession(result.session, result.parts, null), 200);
  });
}
