import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { MediaProbe } from "../../../src/domain/media";
import { InvocationScope } from "../../../src/lib/invocation-scope";
import { probeKey } from "../../../src/lib/object-keys";
import {
  loadClusterIndex,
  loadProbe,
  loadProbeIn,
  storeProbe,
} from "../../../src/services/media/probe-store";

const PROBE: MediaProbe = {
  container: "mp4",
  duration: 12,
  video: { codec: "avc", width: 160, height: 90, rotation: 0, frameCount: 300, fps: 25 },
  audio: null,
  keyframes: [0, 2, 4],
  textTracks: [],
  tags: { keywords: [], other: {} },
  coverArt: null,
};

/** The media bucket, its probe reads counted and failing while `down` holds. */
function countedBucket(videoId: string) {
  const state = { down: false, reads: 0 };
  const bucket = new Proxy(env.MEDIA_BUCKET, {
    get(target, property, receiver) {
      if (property !== "get") return Reflect.get(target, property, receiver);
      return async (key: string) => {
        if (key === probeKey(videoId)) {
          state.reads++;
          if (state.down) throw new Error("storage unavailable");
        }
        return target.get(key);
      };
    },
  });
  return { bucket, state };
}

describe("a video's probe in a batch's scope", () => {
  it("is read once for the windows of one video in one batch", async () => {
    const videoId = "vid_probe_scope_once";
    await storeProbe(env.MEDIA_BUCKET, videoId, PROBE);
    const { bucket, state } = countedBucket(videoId);
    const scope = new InvocationScope();
    const loaded = await Promise.all([1, 2, 3].map(() => loadProbeIn(scope, bucket, videoId)));
    expect(loaded.map((probe) => probe?.duration)).toEqual([12, 12, 12]);
    expect(state.reads).toBe(1);
    scope.dispose();
  });

  it("is read again after a failed read, not failed for the rest of the batch", async () => {
    const videoId = "vid_probe_scope_retry";
    await storeProbe(env.MEDIA_BUCKET, videoId, PROBE);
    const { bucket, state } = countedBucket(videoId);
    const scope = new InvocationScope();
    state.down = true;
    await expect(loadProbeIn(scope, bucket, videoId)).rejects.toThrow("storage unavailable");
    state.down = false;
    expect((await loadProbeIn(scope, bucket, videoId))?.keyframes).toEqual([0, 2, 4]);
    expect(state.reads).toBe(2);
    scope.dispose();
  });
});

describe("a Cues-less Matroska file's Cluster index", () => {
  const clusterIndex = {
    videoTrack: 1,
    otherTracks: [2],
    segmentStart: 40,
    segmentDataStart: 52,
    segmentSize: 9_000,
    firstCluster: 300,
    ticks: Float64Array.of(0, 2000, 4000),
    offsets: Float64Array.of(300, 3300, 6300),
    keys: Uint8Array.of(1, 0, 1),
  };

  it("is kept beside the probe and read back apart from it", async () => {
    const videoId = "vid_cluster_index";
    await storeProbe(env.MEDIA_BUCKET, videoId, { ...PROBE, container: "mkv", clusterIndex });
    expect(await loadClusterIndex(env.MEDIA_BUCKET, videoId)).toEqual(clusterIndex);
    const probe = await loadProbe(env.MEDIA_BUCKET, videoId);
    expect(probe?.container).toBe("mkv");
    expect(probe).not.toHaveProperty("clusterIndex");
  });

  it("is absent for a probe without one", async () => {
    const videoId = "vid_no_cluster_index";
    await storeProbe(env.MEDIA_BUCKET, videoId, PROBE);
    expect(await loadClusterIndex(env.MEDIA_BUCKET, videoId)).toBeNull();
  });
});
