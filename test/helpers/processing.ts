import { env } from "cloudflare:workers";
import { expect, vi } from "vitest";
import { sourceKey } from "../../src/lib/object-keys";
import type { VideoDto } from "../../src/routes/videos/schemas";
import { insertVideos } from "./factories";
import { type Client, expectJson, newTenant } from "./harness";
import { fixtureBytes, type MediaFixture } from "./media-fixtures";
import { startUpload, uploadTo } from "./uploads";

/** Uploads bytes through the API and the storage gateway and completes the upload. */
export async function uploadVideo(
  api: Client,
  filename: string,
  bytes: Uint8Array,
): Promise<VideoDto> {
  const session = await startUpload(api, filename, bytes.byteLength);
  await uploadTo(session.targets[0] ?? { url: "", headers: {} }, bytes);
  return expectJson<VideoDto>(
    await api.post(`/videos/${session.video_id}/upload/complete`, {}),
    200,
  );
}

/** Uploads a media fixture under its own name. */
export function uploadFixture(api: Client, name: MediaFixture): Promise<VideoDto> {
  return uploadVideo(api, name, fixtureBytes(name));
}

/** Polls GET /videos/{id} until processing reaches a final status (the real queues run it). */
export async function waitForFinal(api: Client, videoId: string): Promise<VideoDto> {
  let video: VideoDto | undefined;
  await vi.waitUntil(
    async () => {
      video = await expectJson<VideoDto>(await api.get(`/videos/${videoId}`), 200);
      return video.status === "completed" || video.status === "failed";
    },
    { timeout: 20_000, interval: 100 },
  );
  expect(video).toBeDefined();
  return video as VideoDto;
}

/** The outbox events of a workspace, oldest first. */
export async function outbox(
  workspaceId: string,
): Promise<{ type: string; data: { video: VideoDto } }[]> {
  const { results } = await env.DB.prepare(
    "SELECT type, data FROM events WHERE workspace_id = ? ORDER BY id",
  )
    .bind(workspaceId)
    .all<{ type: string; data: string }>();
  return results.map((row) => ({ type: row.type, data: JSON.parse(row.data) }));
}

/** The request each outbox event of a workspace names, oldest first. */
export async function outboxRequests(
  workspaceId: string,
): Promise<{ type: string; request_id: string | null }[]> {
  const { results } = await env.DB.prepare(
    "SELECT type, request_id FROM events WHERE workspace_id = ? ORDER BY id",
  )
    .bind(workspaceId)
    .all<{ type: string; request_id: string | null }>();
  return results;
}

/** A video's index segments as stored in D1. */
export async function storedSegments(videoId: string) {
  const { results } = await env.DB.prepare(
    "SELECT id, position, start_time, end_time, scene_description, transcript, tags, evidence FROM video_segments WHERE video_id = ? ORDER BY position",
  )
    .bind(videoId)
    .all<{
      id: string;
      position: number;
      start_time: number;
      end_time: number;
      scene_description: string;
      transcript: string;
      tags: string;
      evidence: string;
    }>();
  return results.map((row) => ({
    ...row,
    tags: JSON.parse(row.tags) as string[],
    evidence: JSON.parse(row.evidence) as {
      kind: string;
      text: string;
      start: number;
      end: number;
    }[],
  }));
}

/** A queued video whose verified source is talk.mp4 (or `file`), as upload completion leaves it. */
export async function queuedVideo(file?: { filename: string; bytes: Uint8Array }) {
  const tenant = await newTenant(["READ_VIDEOS"]);
  const bytes = file?.bytes ?? fixtureBytes("talk.mp4");
  const [id = ""] = await insertVideos(tenant.workspaceId, 1, {
    status: "queued",
    progress: 0,
    filename: file?.filename ?? "talk.mp4",
    fileSize: bytes.byteLength,
  });
  await env.MEDIA_BUCKET.put(sourceKey(id), bytes);
  return { ...tenant, videoId: id };
}
