import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createPorts } from "../../../src/ports";
import { deleteVideo } from "../../../src/services/deletion/delete-video";
import { eraseVideo } from "../../../src/services/deletion/erase-video";
import { createDeps } from "../../../src/services/deps";
import { storedKeys, storedRows, storedVectorIds, tombstone } from "../../helpers/deletion";
import { newTenant } from "../../helpers/harness";
import {
  outboxRequests,
  storedSegments,
  uploadFixture,
  waitForFinal,
} from "../../helpers/processing";
import { recordingEnv, sweepAfter } from "../../helpers/sweep";

/** A bucket whose deletes fail: the invocation erasing the video dies part way. */
function crashingBucket(bucket: R2Bucket): R2Bucket {
  return new Proxy(bucket, {
    get(target, property, receiver) {
      if (property === "delete") {
        return () => Promise.reject(new Error("the invocation died"));
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe("erasure after a crash", () => {
  it("is found by the sweep and resumed where it stopped, announced once", async () => {
    const { api, workspaceId } = await newTenant(["UPLOAD_VIDEOS", "READ_VIDEOS"]);
    const video = await waitForFinal(api, (await uploadFixture(api, "talk.mp4")).id);
    expect((await storedSegments(video.id)).length).toBeGreaterThan(0);
    const recording = recordingEnv();
    const deps = createDeps(recording.env, createPorts(recording.env));
    await deleteVideo(deps, workspaceId, video.id, { actor: "key_test", requestId: "req-delete" });
    const [sent] = recording.queues.PROCESSING_QUEUE.sent;
    const erase = {
      type: "erase-video" as const,
      video_id: video.id,
      workspace_id: workspaceId,
      request_id: "req-delete",
    };
    expect(sent).toEqual(erase);

    const crashed = { ...deps, bucket: crashingBucket(env.MEDIA_BUCKET) };
    await expect(
      eraseVideo(crashed, { type: "erase-video", video_id: video.id, workspace_id: workspaceId }),
    ).rejects.toThrow("the invocation died");
    // Vectors and segments went before the crash; the bytes and the announcement did not.
    expect(await storedVectorIds(workspaceId, video.id)).toEqual([]);
    expect((await storedRows(video.id)).video_segments).toBe(0);
    expect(await storedKeys(video.id)).toContain(`videos/${video.id}/index.json`);
    expect((await tombstone(video.id))?.erased_at).toBeNull();

    const resumed = recordingEnv();
    const report = await sweepAfter(resumed.env, 2);
    expect(report.erasures.resent).toContain(video.id);
    const resent = resumed.queues.PROCESSING_QUEUE.sent.find((message) =>
      JSON.stringify(message).includes(video.id),
    );
    // The re-send still names the DELETE: erasure is its work, however often it is re-sent.
    expect(resent).toEqual(erase);
    const message = erase;
    expect(await eraseVideo(deps, message)).toBe("erased");
    expect(await storedKeys(video.id)).toEqual([]);
    expect(await storedRows(video.id)).toEqual({
      video_segments: 0,
      segment_text: 0,
      media_windows: 0,
      video_usage: 0,
      work_leases: 0,
    });
    // A late redelivery and a later sweep find nothing left to do.
    expect(await eraseVideo(deps, message)).toBe("skipped");
    expect((await sweepAfter(recordingEnv().env, 2)).erasures.resent).not.toContain(video.id);
    const events = (await outboxRequests(workspaceId)).filter((e) => e.type === "video.deleted");
    expect(events).toEqual([{ type: "video.deleted", request_id: "req-delete" }]);
  });

  it("waits while processing still renews the video's lease", async () => {
    const { api, workspaceId } = await newTenant(["UPLOAD_VIDEOS", "READ_VIDEOS"]);
    const video = await waitForFinal(api, (await uploadFixture(api, "talk.mp4")).id);
    await env.DB.prepare("UPDATE videos SET status = 'processing' WHERE id = ?")
      .bind(video.id)
      .run();
    await env.DB.prepare(
      "INSERT OR REPLACE INTO work_leases (subject_id, kind, attempts, active_from) VALUES (?, 'video', 0, ?)",
    )
      .bind(video.id, new Date().toISOString())
      .run();
    const recording = recordingEnv();
    const deps = createDeps(recording.env, createPorts(recording.env));
    await deleteVideo(deps, workspaceId, video.id, { actor: "key_test", requestId: "req-delete" });
    const message = { type: "erase-video" as const, video_id: video.id, workspace_id: workspaceId };
    expect(await eraseVideo(deps, message)).toBe("deferred");
    expect(await storedKeys(video.id)).toContain(`videos/${video.id}/index.json`);
    const later = { ...deps, clock: { now: () => Date.now() + 2 * 60_000 } };
    expect(await eraseVideo(later, message)).toBe("erased");
    expect(await storedKeys(video.id)).toEqual([]);
  });
});
