import type { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "@hono/zod-openapi";
import type { HonoEnv } from "../../middleware/hono-env";
import { idParam } from "../../schemas/common";
import { deleteVideo } from "../../services/deletion/delete-video";
import { byKey } from "../audited-by";
import { alphaRoute } from "../define";

const route = alphaRoute(
  { permission: "DELETE_VIDEOS", idempotent: true },
  {
    method: "delete",
    operationId: "deleteVideo",
    path: "/videos/{video_id}",
    tags: ["Videos"],
    summary: "Delete a video",
    description:
      "Deletes a video and everything derived from it. Once this answers 204 no API path reads the video: `GET` answers 404, lists and search leave it out, its media and thumbnail URLs stop working, and new runs naming it answer 409. An upload still open is aborted. Its stored bytes, index rows and vectors are erased in the background, resumed after any crash, and `video.deleted` is sent once erasure is complete. Reports that cited it keep their hash and redact it when rendered.",
    request: {
      params: z.object({ video_id: idParam("video_id", "vid_01jd3m6t8y0c7x4k2n9q5r1s3v") }),
    },
    responses: { 204: { description: "Deleted; erasure continues in the background" } },
  },
);

/** DELETE /videos/{video_id} */
export function registerDeleteVideo(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { video_id } = c.req.valid("param");
    await deleteVideo(c.var.deps, c.var.auth.workspaceId, video_id, byKey(c));
    return c.body(null, 204);
  });
}
