import { env } from "cloudflare:workers";
import { expect, vi } from "vitest";
import { database, runBatch } from "../../src/db/client";
import { replaceSegmentsStatements } from "../../src/db/repos/segments";
import { videoPrefixes } from "../../src/lib/object-keys";
import { createPorts } from "../../src/ports";
import { VectorizeIndex } from "../../src/ports/vector-index/vectorize";
import { RecordingVectorize } from "../workers/search-ports/recording-fakes";
import { segmentRow } from "./factories";
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

/**
 * Stores `count` segments of a video, their vectors in a production index over a recording
 * Vectorize binding, and `frames` objects under its frames prefix (more than one R2 list page
 * when over 1,000): what an erasure through the production adapters must page through.
 */
export async function seedVectorizedVideo(
  workspaceId: string,
  videoId: string,
  counts: { segments: number; frames: number },
) {
  const db = database(env.DB);
  const rows = Array.from({ length: counts.segments }, (_, i) =>
    segmentRow(workspaceId, videoId, i),
  );
  await runBatch(db, replaceSegmentsStatements(db, videoId, rows));
  const binding = new RecordingVectorize();
  const vectorIndex = new VectorizeIndex(binding, { sleep: async () => undefined });
  await vectorIndex.upsert(
    workspaceId,
    rows.map((row) => ({
      id: row.id,
      values: Float32Array.from([1, 0, 0, 0]),
      metadata: { video_id: videoId },
    })),
  );
  await putObjects(
    Array.from({ length: counts.frames }, (_, i) => `videos/${videoId}/frames/${i}.jpg`),
  );
  return { binding, vectorIndex, segmentIds: rows.map((row) => row.id) };
}

/** Stores a small object at each key, 50 at a time. */
export async function putObjects(keys: string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 50) {
    await Promise.all(keys.slice(i, i + 50).map((key) => env.MEDIA_BUCKET.put(key, "x")));
  }
}
