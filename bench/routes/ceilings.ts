import type { Hono } from "hono";
import { database } from "../../src/db/client";
import { listVideos } from "../../src/db/repos/videos";
import { videos } from "../../src/db/schema";
import { nowIso } from "../../src/lib/clock";
import { newId } from "../../src/lib/ids";
import { pageQuery, toPage } from "../../src/lib/pagination";
import { signingSecret } from "../../src/lib/secrets";
import { probeMedia } from "../../src/media/probe";
import { r2RangeSource } from "../../src/media/r2-source";
import type { HonoEnv } from "../../src/middleware/hono-env";
import { presentVideo } from "../../src/services/presenters/video";

/**
 * The local ceiling for `npm run bench`: the same D1 list query as GET /videos with no
 * authentication and no middleware. Mounted only by the bench entry (bench/worker.ts).
 */
export function registerBenchRoutes(app: Hono<HonoEnv>) {
  app.get("/__bench/videos", async (c) => {
    const workspaceId = c.req.query("workspace_id") ?? "";
    const limit = Number(c.req.query("limit") ?? 25);
    const list = { secret: signingSecret(c.env), scope: `videos|${workspaceId}|` };
    const page = await pageQuery(list, { limit });
    const rows = await listVideos(database(c.env.DB), workspaceId, {}, page);
    return c.json(
      await toPage(
        list,
        rows,
        limit,
        (row) => [row.id],
        (row) => presentVideo(row),
      ),
    );
  });

  app.post("/__bench/seed-videos", async (c) => {
    const workspaceId = c.req.query("workspace_id") ?? "";
    const count = Math.min(Number(c.req.query("count") ?? 25), 1000);
    const db = database(c.env.DB);
    const now = nowIso();
    const rows = Array.from({ length: count }, (_, i) => ({
      id: newId("vid"),
      workspaceId,
      filename: `bench-${i}.mp4`,
      contentType: "video/mp4",
      fileSize: 1_000_000,
      status: "completed" as const,
      progress: 100,
      duration: 60,
      frameCount: 1800,
      createdAt: now,
      updatedAt: now,
    }));
    for (let i = 0; i < rows.length; i += 5) await db.insert(videos).values(rows.slice(i, i + 5));
    return c.json({ inserted: rows.length });
  });
}

/**
 * The upload ceiling for `npm run bench`: parts written straight into the R2 binding, with
 * no API, no signature check and no ledger.
 */
export function registerBenchUploadRoutes(app: Hono<HonoEnv>) {
  app.post("/__bench/multipart", async (c) => {
    const upload = await c.env.MEDIA_BUCKET.createMultipartUpload(
      c.req.query("key") ?? "bench/object",
    );
    return c.json({ upload_id: upload.uploadId });
  });

  app.put("/__bench/multipart/part", async (c) => {
    const upload = c.env.MEDIA_BUCKET.resumeMultipartUpload(
      c.req.query("key") ?? "",
      c.req.query("upload_id") ?? "",
    );
    if (!c.req.raw.body) return c.json({ error: "no body" }, 400);
    const part = await upload.uploadPart(Number(c.req.query("part_number")), c.req.raw.body);
    return c.json(part);
  });

  app.post("/__bench/multipart/complete", async (c) => {
    const upload = c.env.MEDIA_BUCKET.resumeMultipartUpload(
      c.req.query("key") ?? "",
      c.req.query("upload_id") ?? "",
    );
    const object = await upload.complete(await c.req.json<R2UploadedPart[]>());
    return c.json({ size: object.size });
  });

  app.post("/__bench/probe", async (c) => {
    const key = c.req.query("key") ?? "";
    const head = await c.env.MEDIA_BUCKET.head(key);
    if (!head) return c.json({ error: "no such object" }, 404);
    let gets = 0;
    let bytesRead = 0;
    const counting = {
      get: async (objectKey: string, options: { range: { offset: number; length: number } }) => {
        gets += 1;
        bytesRead += options.range.length;
        return c.env.MEDIA_BUCKET.get(objectKey, options);
      },
    };
    const started = performance.now();
    const probe = await probeMedia(r2RangeSource(counting, key, head.size), {
      filename: key,
      contentType: "video/mp4",
    });
    const ms = performance.now() - started;
    return c.json({ ms, gets, bytes_read: bytesRead, size: head.size, duration: probe.duration });
  });
}
