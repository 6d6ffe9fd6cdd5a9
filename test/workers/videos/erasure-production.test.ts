import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createPorts } from "../../../src/ports";
import { deleteVideo } from "../../../src/services/deletion/delete-video";
import { eraseVideo } from "../../../src/services/deletion/erase-video";
import { createDeps } from "../../../src/services/deps";
import { seedVectorizedVideo, storedKeys, storedRows } from "../../helpers/deletion";
import { insertVideos } from "../../helpers/factories";
import { newTenant } from "../../helpers/harness";
import { outbox } from "../../helpers/processing";
import { recordingEnv } from "../../helpers/sweep";

const SEGMENTS = 1_500;
const FRAMES = 1_050;

describe("erasure with the production vector index", () => {
  it("deletes every vector through Vectorize in batches of 1,000 and every object in pages", async () => {
    const { workspaceId } = await newTenant(["READ_VIDEOS"]);
    const [videoId = ""] = await insertVideos(workspaceId, 1);
    // More objects than one R2 list page holds.
    const { binding, vectorIndex, segmentIds } = await seedVectorizedVideo(workspaceId, videoId, {
      segments: SEGMENTS,
      frames: FRAMES,
    });
    await env.MEDIA_BUCKET.put(`staging/${videoId}/session`, "late bytes");
    // Another video's objects share no prefix with this one and stay.
    const [neighbour = ""] = await insertVideos(workspaceId, 1);
    await env.MEDIA_BUCKET.put(`videos/${neighbour}/source`, "kept");

    const target = recordingEnv();
    const deps = createDeps(target.env, { ...createPorts(target.env), vectorIndex });
    await deleteVideo(deps, workspaceId, videoId, { actor: "key_test", requestId: "req-delete" });
    const message = { type: "erase-video" as const, video_id: videoId, workspace_id: workspaceId };
    expect(await eraseVideo(deps, message)).toBe("erased");

    expect(binding.deletes.map((batch) => batch.length)).toEqual([1_000, 500]);
    expect(new Set(binding.deletes.flat())).toEqual(new Set(segmentIds));
    const probe = Float32Array.from([1, 0, 0, 0]);
    expect(await vectorIndex.query(workspaceId, probe, { topK: 100, videoIds: [videoId] })).toEqual(
      [],
    );
    expect(await storedKeys(videoId)).toEqual([]);
    expect(await storedRows(videoId)).toMatchObject({ video_segments: 0, segment_text: 0 });
    expect(await env.MEDIA_BUCKET.head(`videos/${neighbour}/source`)).not.toBeNull();
    const events = (await outbox(workspaceId)).filter((event) => event.type === "video.deleted");
    expect(events.map((event) => event.data.video.id)).toEqual([videoId]);
  }, 60_000);
});
