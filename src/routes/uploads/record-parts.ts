import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { HonoEnv } from "../../middleware/hono-env";
import { presentSession } from "../../services/presenters/upload-session";
import { alphaRoute } from "../define";
import { UploadSessionSchema, unwrap, VideoIdParamsSchema } from "./schemas";

const RecordPartsBodySchema = z
  .strictObject({
    parts: z
      .array(
        z.strictObject({
          part_number: z.number().int().min(1).max(10_000).openapi({ example: 1 }),
          etag: z.string().trim().min(1).max(256).openapi({
            description: "The ETag header the part's PUT answered (quoted or not)",
            example: '"9b2cf535f27731c974343645a3985328"',
          }),
        }),
      )
      .min(1)
      .max(10_000),
  })
  .openapi("RecordPartsRequest");

const route = alphaRoute(
  { permission: "UPLOAD_VIDEOS" },
  {
    method: "put",
    operationId: "recordUploadParts",
    path: "/videos/{video_id}/upload/parts",
    tags: ["Videos"],
    summary: "Record uploaded parts",
    description:
      "Records the ETags of uploaded parts (multipart uploads). A receipt for a new part is recorded as given; resending a part with the same ETag is a no-op, a new ETag replaces a recorded receipt once storage confirms it. The recorded receipts are the completion manifest, which completion checks against storage (ETags and sizes). All receipts of one call are recorded, or none.",
    request: {
      params: VideoIdParamsSchema,
      body: { required: true, content: { "application/json": { schema: RecordPartsBodySchema } } },
    },
    responses: {
      200: {
        description: "The upload session",
        content: { "application/json": { schema: UploadSessionSchema } },
      },
    },
  },
);

/** PUT /videos/{video_id}/upload/parts */
export function registerRecordParts(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { video_id } = c.req.valid("param");
    const { parts } = c.req.valid("json");
    const result = unwrap(
      await c.env.UPLOAD_SESSIONS.getByName(video_id).recordParts(c.var.auth.workspaceId, parts),
    );
    return c.json(presentSession(result.session, result.parts, null), 200);
  });
}
