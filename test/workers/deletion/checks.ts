import { expect } from "vitest";
import { storedKeys, storedRows, tombstone } from "../../helpers/deletion";
import { workerFetch } from "../../helpers/harness";
import { outbox } from "../../helpers/processing";
import { type Case, PHRASE } from "./operations";
import type { World } from "./world";

/**
 * The ids of the video's vectors the mode's index still answers with. The probe weighs every
 * dimension: an embedded phrase can be all zeros once the embedder forgot the workspace's
 * documents, and an index answers nothing to that.
 */
export async function storedVectors(world: World, videoId: string): Promise<string[]> {
  const { embedder, vectorIndex } = world.readPorts;
  const probe = new Float32Array(embedder.dimensions).fill(1 / Math.sqrt(embedder.dimensions));
  const matches = await vectorIndex.query(world.workspaceId, probe, {
    topK: 100,
    videoIds: [videoId],
  });
  return matches.map((match) => match.id);
}

async function answer(world: World, method: string, path: string, body?: unknown) {
  const res = await world.request(world.env, method, path, body);
  return { status: res.status, text: await res.text() };
}

/**
 * Every read of the API a client has shows nothing of the deleted video; with `urls`, neither
 * do the signed URLs handed out earlier.
 */
export async function expectNothingReadable(
  world: World,
  c: Case,
  why: string,
  check: { urls: boolean },
): Promise<void> {
  const path = `/videos/${c.videoId}`;
  const one = await answer(world, "GET", path);
  expect(one.status, `${why}: GET ${path}: ${one.text}`).toBe(404);
  const captions = await answer(world, "GET", `${path}/captions`);
  expect(captions.status, `${why}: captions: ${captions.text}`).toBe(404);
  const list = await answer(world, "GET", "/videos?limit=100");
  expect(list.text, `${why}: GET /videos`).not.toContain(c.videoId);
  const search = await answer(world, "POST", "/search", { query: PHRASE });
  expect(search.status, search.text).toBe(200);
  expect(search.text, `${why}: search`).not.toContain(c.videoId);
  const run = await answer(world, "POST", "/runs", {
    source_ids: [c.videoId],
    profile_id: world.profileId,
  });
  expect(run.status, `${why}: POST /runs: ${run.text}`).toBe(409);
  expect(JSON.parse(run.text)).toMatchObject({ code: "video-deleted" });
  for (const url of check.urls ? c.urls : []) {
    const res = await workerFetch(url);
    expect(res.status, `${why}: ${url} handed out earlier`).toBe(404);
  }
}

/** Nothing of the video is stored any more, and its erasure was announced once. */
export async function expectErased(world: World, c: Case, why: string): Promise<void> {
  const stone = await tombstone(c.videoId);
  expect(stone?.status, why).toBe("deleted");
  expect(stone?.erased_at, `${why}: erased_at`).not.toBeNull();
  expect(await storedKeys(c.videoId), `${why}: objects`).toEqual([]);
  expect(await storedRows(c.videoId), `${why}: rows`).toEqual({
    video_segments: 0,
    segment_text: 0,
    media_windows: 0,
    video_usage: 0,
    work_leases: 0,
  });
  expect(await storedVectors(world, c.videoId), `${why}: vectors`).toEqual([]);
  const announced = (await outbox(world.workspaceId)).filter(
    (event) => event.type === "video.deleted" && event.data.video.id === c.videoId,
  );
  expect(announced, `${why}: video.deleted events`).toHaveLength(1);
}
