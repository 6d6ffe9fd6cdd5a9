import type { Hono } from "hono";
import { database } from "../db/client";
import { listVideos } from "../db/repos/videos";
import { videos } from "../db/schema";
import type { HonoEnv } from "../env";
import { nowIso } from "../lib/clock";
import { newId } from "../lib/ids";
import { pageQuery, toPage } from "../lib/pagination";
import { signingSecret } from "../services/secrets";
import { presentVideo } from "./videos/schemas";

/**
 * The local ceiling for `npm run bench`: the same D1 list query as GET /videos with no
 * authentication and no middleware. Mounted only when BENCH_ROUTES=1.
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
