import { env } from "cloudflare:workers";
import { expect, vi } from "vitest";
import { videoPrefixes } from "../../src/lib/object-keys";
import { createPorts } from "../../src/ports";
import type { Client } from "./harness";

/** DELETE /videos/{id}, with an optional Idempotency-Key. */
export function deleteVideo(api: Client, videoId: string, idempotencyKey?: string) {
  const headers: Record<string, string> =
    idempotencyKey === undefined ? {} : { "Idempotency-Key": idempotencyKey };
  return api.request("DELETE", `/videos/${videoId}`, { headers });
}

/** Every R2 key stored under the video's prefixes. */
export async function storedKeys(videoId: string): Promise<string[]> {
  const keys: string[] = [];
  for (const prefix of videoPrefixes(videoId)) {
    const page = await env.MEDIA_BUCKET.list({ prefix });
    keys.push(...page.objects.map((object) => object.key));
  }
  return keys.sort();
}

/** How many rows of each per-video table still name the video. */
export async function storedRows(videoId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const tables = [
    ["video_segments", "video_id"],
    ["segment_text", "video_id"],
    ["media_windows", "video_id"],
    ["video_usage", "video_id"],
    ["work_leases", "subject_id"],
  ] as const;
  for (const [table, column] of tables) {
    const row = await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${column} = ?`)
      .bind(videoId)
      .first<{ n: number }>();
    counts[table] = row?.n ?? -1;
  }
  return counts;
}

/** The ids of the video's vectors the workspace's index still answers with. */
export async function storedVectorIds(workspaceId: string, videoId: string): Promise<string[]> {
  const ports = createPorts(env);
  const [probe] = await ports.embedder.embed(workspaceId, ["loading dock safety"], "query");
  if (!probe) throw new Error("the embedder returned no vector");
  const matches = await ports.vectorIndex.query(workspaceId, probe, {
    topK: 100,
    videoIds: [videoId],
  });
  return matches.map((match) => match.id);
}

/** The tombstone's columns as stored. */
export async function tombstone(videoId: string) {
  return env.DB.prepare(
    "SELECT status, filename, media, deleted_at, erased_at FROM videos WHERE id = ?",
  )
    .bind(videoId)
    .first<{
      status: string;
      filename: string;
      media: string | null;
      deleted_at: string | null;
      erased_at: string | null;
    }>();
}

/** Waits until the background erasure of a deleted video has completed. */
export async function waitForErasure(videoId: string): Promise<void> {
  await vi.waitUntil(async () => (await tombstone(videoId))?.erased_at != null, {
    timeout: 20_000,
    interval: 100,
  });
  expect((await tombstone(videoId))?.status).toBe("deleted");
}
