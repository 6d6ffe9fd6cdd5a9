import { describe, expect, it } from "vitest";
import type { VideoDto } from "../../../src/routes/videos/schemas";
import {
  deleteVideo,
  storedKeys,
  storedRows,
  storedVectorIds,
  tombstone,
  waitForErasure,
} from "../../helpers/deletion";
import { expectJson, expectProblem, newTenant, workerFetch } from "../../helpers/harness";
import { outbox, uploadFixture, waitForFinal } from "../../helpers/processing";
import { createProfile } from "../../helpers/runs";

const EVERYTHING = ["UPLOAD_VIDEOS", "READ_VIDEOS", "DELETE_VIDEOS", "SEARCH_CONTENT"] as const;

async function processedTalk() {
  const tenant = await newTenant([...EVERYTHING, "VIEW_INSIGHTS", "RUN_WORKFLOWS"]);
  const uploaded = await uploadFixture(tenant.api, "talk.mp4");
  const video = await waitForFinal(tenant.api, uploaded.id);
  expect(video.status).toBe("completed");
  return { ...tenant, video };
}

describe("DELETE /videos/{video_id}", () => {
  it("hides the video from every read at once and erases everything of it", async () => {
    const { api, workspaceId, video } = await processedTalk();
    const shown = await expectJson<VideoDto>(await api.get(`/videos/${video.id}`), 200);
    const thumbnail = shown.thumbnail_url ?? "";
    expect((await workerFetch(thumbnail)).status).toBe(200);
    expect(await storedKeys(video.id)).toContain(`videos/${video.id}/source`);
    expect(await storedVectorIds(workspaceId, video.id)).not.toEqual([]);
    // Its own usage (seconds processed) is erased with it; the workspace's stays.
    expect((await storedRows(video.id)).video_usage).toBeGreaterThan(0);
    const profileId = await createProfile(api);

    const res = await deleteVideo(api, video.id);
    expect(res.status, await res.clone().text()).toBe(204);
    expect(await res.text()).toBe("");

    await expectProblem(await api.get(`/videos/${video.id}`), 404, "resource-not-found");
    await expectProblem(await api.get(`/videos/${video.id}/upload`), 404, "resource-not-found");
    await expectProblem(await api.get(`/videos/${video.id}/captions`), 404, "resource-not-found");
    await expectProblem(
      await api.get(`/videos/${video.id}/captions/en`),
      404,
      "resource-not-found",
    );
    const captions = await api.request("PUT", `/videos/${video.id}/captions/en`, {
      body: "WEBVTT\n\n00:00.000 --> 00:01.000\nHello\n",
      headers: { "content-type": "text/vtt" },
    });
    await expectProblem(captions, 404, "resource-not-found");
    const list = await expectJson<{ data: VideoDto[] }>(await api.get("/videos"), 200);
    expect(list.data.map((v) => v.id)).not.toContain(video.id);
    const hits = await expectJson<{ data: { video_id: string }[] }>(
      await api.post("/search", { query: '"the loading dock closes at six pm"' }),
      200,
    );
    expect(hits.data.map((hit) => hit.video_id)).not.toContain(video.id);
    await expectProblem(
      await api.post("/search", { query: "loading dock", video_ids: [video.id] }),
      404,
      "resource-not-found",
    );
    expect((await workerFetch(thumbnail)).status).toBe(404);
    const refused = await expectProblem(
      await api.post("/runs", { source_ids: [video.id], profile_id: profileId }),
      409,
      "video-deleted",
    );
    expect(refused.detail).toContain(video.id);

    await waitForErasure(video.id);
    expect(await storedKeys(video.id)).toEqual([]);
    expect(await storedRows(video.id)).toEqual({
      video_segments: 0,
      segment_text: 0,
      media_windows: 0,
      video_usage: 0,
      work_leases: 0,
    });
    expect(await storedVectorIds(workspaceId, video.id)).toEqual([]);
    const stone = await tombstone(video.id);
    expect(stone).toMatchObject({ status: "deleted", filename: "", media: null });
    const deleted = (await outbox(workspaceId)).filter((event) => event.type === "video.deleted");
    expect(deleted).toHaveLength(1);
    expect(deleted[0]?.data).toEqual({
      video: {
        id: video.id,
        status: "deleted",
        deleted_at: stone?.deleted_at,
        erased_at: stone?.erased_at,
      },
    });
    // A run named after erasure is refused the same way: the tombstone keeps the id.
    await expectProblem(
      await api.post("/runs", { source_ids: [video.id], profile_id: profileId }),
      409,
      "video-deleted",
    );
  });

  it("replays a repeated request with the same Idempotency-Key", async () => {
    const { api, video } = await processedTalk();
    const first = await deleteVideo(api, video.id, "delete-once");
    expect(first.status, await first.clone().text()).toBe(204);
    const again = await deleteVideo(api, video.id, "delete-once");
    expect(again.status, await again.clone().text()).toBe(204);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    // Without the key, the video is simply gone.
    await expectProblem(await deleteVideo(api, video.id), 404, "resource-not-found");
    await waitForErasure(video.id);
  });
});
