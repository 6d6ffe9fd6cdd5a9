import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Env } from "../../../src/env";
import { createPorts } from "../../../src/ports";
import { eraseVideo } from "../../../src/services/deletion/erase-video";
import { createDeps } from "../../../src/services/deps";
import { runSweep, type SweepReport } from "../../../src/services/sweep";
import {
  storedKeys,
  storedRows,
  storedVectorIds,
  tombstone,
  waitForErasure,
} from "../../helpers/deletion";
import { insertVideos } from "../../helpers/factories";
import { admin, expectJson, expectProblem, newTenant } from "../../helpers/harness";
import { outbox, uploadFixture, waitForFinal } from "../../helpers/processing";
import { recordingEnv } from "../../helpers/sweep";
import { startUpload, uploadTo } from "../../helpers/uploads";

const DAY_MS = 24 * 60 * 60 * 1000;

async function setRetention(workspaceId: string, days: number | null): Promise<void> {
  await expectJson(
    await admin("PATCH", `/workspaces/${workspaceId}`, { retention_days: days }),
    200,
  );
}

/** Sets a video's `created_at` back, as if its upload had started `days` ago. */
async function age(videoId: string, days: number): Promise<void> {
  await env.DB.prepare("UPDATE videos SET created_at = ? WHERE id = ?")
    .bind(new Date(Date.now() - days * DAY_MS).toISOString(), videoId)
    .run();
}

/** Runs the scheduled sweep as the cron would at `now`. */
function sweepAt(target: Env, now = Date.now()): Promise<SweepReport> {
  const deps = createDeps(target, createPorts(target));
  return runSweep({ ...deps, clock: { now: () => now } });
}

const sorted = (ids: string[]) => [...ids].sort();

describe("the retention sweep", () => {
  it("deletes videos past their workspace's retention as DELETE does, and nothing else", async () => {
    const { api, workspaceId } = await newTenant(["UPLOAD_VIDEOS", "READ_VIDEOS"]);
    await setRetention(workspaceId, 30);
    const old = await waitForFinal(api, (await uploadFixture(api, "talk.mp4")).id);
    expect(old.status).toBe("completed");
    // An upload still open: its bytes are staged, never completed.
    const open = await startUpload(api, "late.mp4", 4);
    await uploadTo(open.targets[0] ?? { url: "", headers: {} }, "late");
    const [young = ""] = await insertVideos(workspaceId, 1);
    const other = await newTenant(["READ_VIDEOS"]);
    const [elsewhere = ""] = await insertVideos(other.workspaceId, 1);
    await age(old.id, 31);
    await age(open.video_id, 31);
    await age(young, 29);
    await age(elsewhere, 400);
    expect(await storedVectorIds(workspaceId, old.id)).not.toEqual([]);
    expect(await storedKeys(open.video_id)).not.toEqual([]);

    const report = await sweepAt(env);
    expect(sorted(report.retention.deleted)).toEqual(sorted([old.id, open.video_id]));

    await expectProblem(await api.get(`/videos/${old.id}`), 404, "resource-not-found");
    await expectProblem(await api.get(`/videos/${open.video_id}`), 404, "resource-not-found");
    await expectProblem(
      await api.get(`/videos/${open.video_id}/upload`),
      404,
      "resource-not-found",
    );
    await expectJson(await api.get(`/videos/${young}`), 200);
    await expectJson(await other.api.get(`/videos/${elsewhere}`), 200);

    for (const id of [old.id, open.video_id]) {
      await waitForErasure(id);
      expect(await storedKeys(id)).toEqual([]);
      expect(await storedRows(id)).toEqual({
        video_segments: 0,
        segment_text: 0,
        media_windows: 0,
        video_usage: 0,
        work_leases: 0,
      });
    }
    expect(await storedVectorIds(workspaceId, old.id)).toEqual([]);
    const stone = await tombstone(old.id);
    const deleted = (await outbox(workspaceId)).filter((event) => event.type === "video.deleted");
    expect(sorted(deleted.map((event) => event.data.video.id))).toEqual(
      sorted([old.id, open.video_id]),
    );
    expect(deleted.find((event) => event.data.video.id === old.id)?.data).toEqual({
      video: {
        id: old.id,
        status: "deleted",
        deleted_at: stone?.deleted_at,
        erased_at: stone?.erased_at,
      },
    });
    expect((await outbox(other.workspaceId)).map((event) => event.type)).not.toContain(
      "video.deleted",
    );
    // Nothing is left due: the next sweep deletes nothing.
    expect((await sweepAt(env)).retention.deleted).toEqual([]);
  });

  it("counts a video's age from its created_at to the time of the sweep", async () => {
    const { workspaceId } = await newTenant(["READ_VIDEOS"]);
    await setRetention(workspaceId, 1);
    const now = Date.now();
    // One day old 30 s from now.
    const [videoId = ""] = await insertVideos(workspaceId, 1, {
      createdAt: new Date(now - DAY_MS + 30_000).toISOString(),
    });
    const early = recordingEnv();
    expect((await sweepAt(early.env, now)).retention.deleted).toEqual([]);
    expect(early.queues.PROCESSING_QUEUE.sent).toEqual([]);

    const due = recordingEnv();
    const report = await sweepAt(due.env, now + 31_000);
    expect(report.retention.deleted).toEqual([videoId]);
    expect(due.queues.PROCESSING_QUEUE.sent).toEqual([
      { type: "erase-video", video_id: videoId, workspace_id: workspaceId },
    ]);
    expect(await tombstone(videoId)).toMatchObject({
      status: "deleted",
      deleted_at: new Date(now + 31_000).toISOString(),
    });
  });

  it("keeps everything without a retention and applies a shorter one at the next sweep", async () => {
    const { api, workspaceId } = await newTenant(["READ_VIDEOS"]);
    const [oldest = "", older = "", recent = ""] = await insertVideos(workspaceId, 3);
    await age(oldest, 5000);
    await age(older, 300);
    await age(recent, 10);
    const kept = async () =>
      (await expectJson<{ data: { id: string }[] }>(await api.get("/videos"), 200)).data
        .map((video) => video.id)
        .sort();

    expect((await sweepAt(recordingEnv().env)).retention.deleted).toEqual([]);
    expect(await kept()).toEqual(sorted([oldest, older, recent]));

    await setRetention(workspaceId, 365);
    expect((await sweepAt(recordingEnv().env)).retention.deleted).toEqual([oldest]);
    await setRetention(workspaceId, 200);
    expect((await sweepAt(recordingEnv().env)).retention.deleted).toEqual([older]);
    expect(await kept()).toEqual([recent]);

    // Cleared: videos are kept until deleted again, however old.
    await setRetention(workspaceId, null);
    await age(recent, 5000);
    expect((await sweepAt(recordingEnv().env)).retention.deleted).toEqual([]);
    expect(await kept()).toEqual([recent]);
  });

  it("works through a backlog 50 videos a sweep, shared by the workspaces with videos due", async () => {
    const big = await newTenant(["READ_VIDEOS"]);
    const small = await newTenant(["READ_VIDEOS"]);
    const bigIds = await insertVideos(big.workspaceId, 60);
    const smallIds = await insertVideos(small.workspaceId, 3);
    for (const id of [...bigIds, ...smallIds]) await age(id, 40);
    await setRetention(big.workspaceId, 30);
    await setRetention(small.workspaceId, 30);

    const target = recordingEnv();
    const first = await sweepAt(target.env);
    expect(first.retention.deleted).toHaveLength(50);
    expect(first.retention.deleted).toEqual(expect.arrayContaining(smallIds));
    const second = await sweepAt(target.env);
    expect(sorted([...first.retention.deleted, ...second.retention.deleted])).toEqual(
      sorted([...bigIds, ...smallIds]),
    );
    expect((await sweepAt(target.env)).retention.deleted).toEqual([]);
    const erasures = target.queues.PROCESSING_QUEUE.sent.filter(
      (message) => (message as { type: string }).type === "erase-video",
    );
    expect(erasures).toHaveLength(63);
  }, 60_000);

  it("deletes a video still processing, whose erasure waits for its lease", async () => {
    const { api, workspaceId } = await newTenant(["READ_VIDEOS"]);
    await setRetention(workspaceId, 30);
    const [videoId = ""] = await insertVideos(workspaceId, 1, { status: "processing" });
    await age(videoId, 31);
    await env.DB.prepare(
      "INSERT INTO work_leases (subject_id, kind, attempts, active_from) VALUES (?, 'video', 0, ?)",
    )
      .bind(videoId, new Date().toISOString())
      .run();
    await env.MEDIA_BUCKET.put(`videos/${videoId}/index.json`, "{}");

    const target = recordingEnv();
    expect((await sweepAt(target.env)).retention.deleted).toEqual([videoId]);
    await expectProblem(await api.get(`/videos/${videoId}`), 404, "resource-not-found");
    // The sweep's lease clean-up keeps the lease of a video not yet erased.
    expect((await storedRows(videoId)).work_leases).toBe(1);
    const deps = createDeps(target.env, createPorts(target.env));
    const message = { type: "erase-video" as const, video_id: videoId, workspace_id: workspaceId };
    expect(await eraseVideo(deps, message)).toBe("deferred");
    expect(await storedKeys(videoId)).toEqual([`videos/${videoId}/index.json`]);
    const later = { ...deps, clock: { now: () => Date.now() + 2 * 60_000 } };
    expect(await eraseVideo(later, message)).toBe("erased");
    expect(await storedKeys(videoId)).toEqual([]);
  });
});
