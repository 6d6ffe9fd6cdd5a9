import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { probeKey, runReportsPrefix } from "../../../src/lib/object-keys";
import { createPorts } from "../../../src/ports";
import type { RunDto } from "../../../src/routes/runs/schemas";
import { deleteVideo } from "../../../src/services/deletion/delete-video";
import { deleteWorkspace } from "../../../src/services/deletion/delete-workspace";
import { eraseVideo } from "../../../src/services/deletion/erase-video";
import {
  eraseWorkspace,
  type WorkspaceErasureResult,
} from "../../../src/services/deletion/erase-workspace";
import { createDeps, type Deps } from "../../../src/services/deps";
import { storedKeys, storedVectorIds, tombstone } from "../../helpers/deletion";
import { insertVideos } from "../../helpers/factories";
import { expectJson, newTenant } from "../../helpers/harness";
import { outbox, uploadFixture, waitForFinal } from "../../helpers/processing";
import { createProfile, waitForRun } from "../../helpers/runs";
import { recordingEnv, sweepAfter } from "../../helpers/sweep";
import { eraseLater, rowsOfWorkspace } from "../../helpers/workspace-deletion";

const OPERATOR = { actor: "admin", requestId: null };

/** A bucket whose deletes fail: the invocation erasing the workspace dies part way. */
function crashingBucket(bucket: R2Bucket): R2Bucket {
  return new Proxy(bucket, {
    get(target, property, receiver) {
      if (property === "delete") return () => Promise.reject(new Error("the invocation died"));
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** A workspace with a processed video and a completed run with a Markdown report. */
async function processedWorkspace() {
  const tenant = await newTenant(["*"]);
  const video = await waitForFinal(tenant.api, (await uploadFixture(tenant.api, "talk.mp4")).id);
  const profileId = await createProfile(tenant.api);
  return { ...tenant, videoId: video.id, profileId };
}

/** Deletes the workspace with the processing queue recorded, so the test delivers the erasure. */
async function deletedQuietly(workspaceId: string) {
  const recording = recordingEnv();
  const deps = createDeps(recording.env, createPorts(recording.env));
  await deleteWorkspace(deps, workspaceId, OPERATOR);
  expect(recording.queues.PROCESSING_QUEUE.sent).toEqual([
    { type: "erase-workspace", workspace_id: workspaceId },
  ]);
  return { deps, message: { type: "erase-workspace" as const, workspace_id: workspaceId } };
}

async function deliverUntilSettled(deps: Deps, workspaceId: string) {
  let result: WorkspaceErasureResult = "continued";
  const message = { type: "erase-workspace" as const, workspace_id: workspaceId };
  while (result === "continued") result = await eraseWorkspace(deps, message);
  return result;
}

async function runRow(runId: string) {
  return env.DB.prepare("SELECT status, cancel_requested FROM runs WHERE id = ?")
    .bind(runId)
    .first<{ status: string; cancel_requested: number }>();
}

async function nothingLeft(workspaceId: string) {
  return Object.values(await rowsOfWorkspace(workspaceId)).every((n) => n === 0);
}

describe("a workspace's erasure, interrupted", () => {
  it("is found by the sweep and resumed from what is stored", async () => {
    const { api, workspaceId, videoId, profileId } = await processedWorkspace();
    const run = await expectJson<RunDto>(
      await api.post("/runs", {
        source_ids: [videoId],
        profile_id: profileId,
        formats: ["markdown"],
      }),
      202,
    );
    expect((await waitForRun(api, run.id)).status).toBe("completed");
    expect((await env.MEDIA_BUCKET.list({ prefix: runReportsPrefix(run.id) })).objects).not.toEqual(
      [],
    );
    const { deps, message } = await deletedQuietly(workspaceId);

    const crashed = { ...deps, bucket: crashingBucket(env.MEDIA_BUCKET) };
    await expect(eraseWorkspace(crashed, message)).rejects.toThrow("the invocation died");
    // It died marking the video deleted: the mark holds, its bytes and index do not move yet.
    expect((await tombstone(videoId))?.status).toBe("deleted");
    expect(await storedKeys(videoId)).toContain(`videos/${videoId}/index.json`);
    expect(await nothingLeft(workspaceId)).toBe(false);

    // Within a lease the erasure may still be moving: the sweep leaves it alone.
    expect((await sweepAfter(recordingEnv().env, 0)).erasures.workspaces).not.toContain(
      workspaceId,
    );
    const resumed = recordingEnv();
    expect((await sweepAfter(resumed.env, 2)).erasures.workspaces).toContain(workspaceId);
    expect(resumed.queues.PROCESSING_QUEUE.sent).toContainEqual(message);

    expect(await eraseLater(workspaceId)).toBe("erased");
    expect(await nothingLeft(workspaceId)).toBe(true);
    expect(await storedKeys(videoId)).toEqual([]);
    expect(await storedVectorIds(workspaceId, videoId)).toEqual([]);
    expect((await env.MEDIA_BUCKET.list({ prefix: runReportsPrefix(run.id) })).objects).toEqual([]);
    // A late redelivery and a later sweep find nothing left to do.
    expect(await eraseLater(workspaceId)).toBe("skipped");
    expect((await sweepAfter(recordingEnv().env, 2)).erasures.workspaces).not.toContain(
      workspaceId,
    );
  });

  it("stops runs in flight and outwaits work that may still write, then finishes", async () => {
    const { api, workspaceId, videoId, profileId } = await processedWorkspace();
    const later = { source_ids: [videoId], profile_id: profileId, execute_now: false };
    const queued = await expectJson<RunDto>(await api.post("/runs", later), 202);
    const busy = await expectJson<RunDto>(await api.post("/runs", later), 202);
    // A run whose lanes are at work: started, its lease renewed just now.
    expect(await env.RUNS.getByName(busy.id).begin()).toBe(true);
    const [processing = ""] = await insertVideos(workspaceId, 1, { status: "processing" });
    await env.DB.prepare(
      "INSERT INTO work_leases (subject_id, kind, attempts, active_from) VALUES (?, 'video', 0, ?)",
    )
      .bind(processing, new Date().toISOString())
      .run();
    await env.MEDIA_BUCKET.put(probeKey(processing), "{}");
    const { deps } = await deletedQuietly(workspaceId);

    expect(await deliverUntilSettled(deps, workspaceId)).toBe("waiting");
    expect(await runRow(queued.id)).toEqual({ status: "canceled", cancel_requested: 0 });
    expect(await runRow(busy.id)).toEqual({ status: "processing", cancel_requested: 1 });
    // The idle video is erased; the one processing is marked deleted and waits for its lease.
    expect(await storedKeys(videoId)).toEqual([]);
    expect(await tombstone(processing)).toMatchObject({ status: "deleted", erased_at: null });
    expect(await storedKeys(processing)).toEqual([probeKey(processing)]);

    // A lease on, the work has stopped: the run is ended by its object, the video erased.
    expect(await eraseLater(workspaceId)).toBe("erased");
    expect(await runRow(busy.id)).toBeNull();
    expect(await storedKeys(processing)).toEqual([]);
    expect(await nothingLeft(workspaceId)).toBe(true);
    expect(await env.RUNS.getByName(busy.id).current()).toMatchObject({ status: "canceled" });
  });

  it("announces none of its videos' erasure: no video.deleted for a deleting workspace", async () => {
    const { workspaceId, videoId } = await processedWorkspace();
    const { deps } = await deletedQuietly(workspaceId);
    // The video was deleted on its own too; its erasure runs while the workspace is deleting.
    const recording = recordingEnv();
    await deleteVideo(createDeps(recording.env, createPorts(recording.env)), workspaceId, videoId, {
      actor: "key_test",
      requestId: null,
    });
    const message = { type: "erase-video" as const, video_id: videoId, workspace_id: workspaceId };
    expect(await eraseVideo(deps, message)).toBe("erased");
    expect((await tombstone(videoId))?.erased_at).not.toBeNull();
    expect((await outbox(workspaceId)).map((event) => event.type)).not.toContain("video.deleted");
  });
});
