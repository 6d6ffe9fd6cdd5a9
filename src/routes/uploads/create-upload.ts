import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { newId } from "../../lib/ids";
import type { HonoEnv } from "../../middleware/hono-env";
import { presentSession } from "../../services/presenters/upload-session";
import { contentTypeFor, MAX_FILE_BYTES } from "../../services/uploads";
import { alphaRoute } from "../define";
import { UploadSessionSchema, unwrap } from "./schemas";

const CreateUploadBodySchema = z
  .strictObject({
    filename: z.string().trim().min(1).max(255).openapi({
      description: "The file's name; its extension decides the content type",
      example: "warehouse-walkthrough.mp4",
    }),
    file_size: z
      .number()
      .int()
      .min(1)
      .max(MAX_FILE_BYTES)
      .openapi({ description: "Exact size in bytes, at most 10 GiB", example: 734003200 }),
  })
  .openapi("CreateUploadRequest");

const route = alphaRoute(
  { permission: "UPLOAD_VIDEOS" },
  {
    method: "post",
    operationId: "createUpload",
    path: "/videos",
    tags: ["Videos"],
    summary: "Start an upload",
    description:
      "Opens an upload session for a new video. Files up to 200 MiB get one PUT target (strategy `direct`); larger files get one target per 10 MiB part (`multipart`). PUT the bytes to the targets, record part ETags (multipart), then complete.",
    request: {
      body: { required: true, content: { "application/json": { schema: CreateUploadBodySchema } } },
    },
    responses: {
      201: {
        description: "The upload session with its targets",
        content: { "application/json": { schema: UploadSessionSchema } },
      },
    },
  },
);

/** POST /videos */
export function registerCreateUpload(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const contentType = contentTypeFor(body.filename);
    const videoId = newId("vid");
    const stub = c.env.UPLOAD_SESSIONS.getByName(videoId);
    const result = unwrap(
      await stub.open(
        {
          videoId,
          workspaceId: c.var.auth.workspaceId,
          filename: body.filename,
          contentType,
          fileSize: body.file_size,
          requestId: c.var.requestId,
        },
        { origin: new URL(c.req.url).origin },
      ),
    );
    return c.json(presentSession(result.session, result.parts, result.targets), 201);
  });
}
