import type { OpenAPIHono } from "@hono/zod-openapi";
import type { HonoEnv } from "../../middleware/hono-env";
import { presentSession } from "../../services/presenters/upload-session";
import { alphaRoute } from "../define";
import { UploadSessionSchema, unwrap, VideoIdParamsSchema } from "./schemas";

const route = alphaRoute(
  { permission: "UPLOAD_VIDEOS" },
  {
    method: "post",
    operationId: "createUploadTargets",
    path: "/videos/{video_id}/upload/targets",
    tags: ["Videos"],
    summary: "Mint fresh storage targets",
    description:
      "Mints new presigned targets (valid 1 hour) for every part not yet recorded or not confirmed by storage at its size, or the single target of a direct upload, and returns the session. Call it whenever targets expire while the session lives.",
    request: { params: VideoIdParamsSchema },
    responses: {
      200: {
        description: "The upload session with fresh targets",
        content: { "application/json": { schema: UploadSessionSchema } },
      },
    },
  },
);

/** POST /videos/{video_id}/upload/targets */
export function registerMintTargets(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { video_id } = c.req.valid("param");
    const result = unwrap(
      await c.env.UPLOAD_SESSIONS.getByName(video_id).targets(c.var.auth.workspaceId, {
        origin: new URL(c.req.url).origin,
      }),
    );
    return c.json(presentSession(result.session, result.parts, result.targets), 200);
  });
}
