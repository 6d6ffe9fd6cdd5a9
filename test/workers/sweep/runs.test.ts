import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createPorts } from "../../../src/ports";
import type { RunDto } from "../../../src/routes/runs/schemas";
import { createDeps } from "../../../src/services/deps";
import { DEFERRED_START_SECONDS } from "../../../src/services/runs/create-run";
import { executeRun } from "../../../src/services/runs/execute-run";
import { MAX_SWEEP_TRIES } from "../../../src/services/sweep/lease";
import { type Client, expectJson, newTenant } from "../../helpers/harness";
import { uploadFixture, waitForFinal } from "../../helpers/processing";
import { createProfile, SAFETY_PROFILE } from "../../helpers/runs";
import { backdate, LEASE_MS, recordingEnv, sweepAfter } from "../../helpers/sweep";

let api: Client;
let workspaceId: string;
let videoId: string;
let profileId: string;

beforeAll(async () => {
  ({ api, workspaceId } = await newTenant());
  videoId = (await waitForFinal(api, (await uploadFixture(api, "talk.mp4")).id)).id;
  profileId = await createProfile(api);
}, 60_000);

/** A run whose queue message is delayed (execute_now: false): only the test moves it. */
async function deferredRun(): Promise<string> {
  const run = await expectJson<RunDto>(
    await api.post(
      "/runs",
      { source_ids: [videoId], profile_id: profileId, execute_now: false },
      { "x-request-id": "deferred-run" },
    ),
    202,
  );
  return run.id;
}

/** A run the consumer began and then lost (its process died), last touched two leases ago. */
async function orphanedRun(): Promise<string> {
  const runId = await deferredRun();
  expect(await env.RUNS.getByName(runId).begin()).toBe(true);
  await backdate("runs", runId, 2 * LEASE_MS);
  return runId;
}

async function runEvents(runId: string): Promise<string[]> {
  const { results } = await env.DB.prepare(
    "SELECT type, data FROM events WHERE workspace_id = ? ORDER BY id",
  )
    .bind(workspaceId)
    .all<{ type: string; data: string }>();
  return results
    .filter((row) => (JSON.parse(row.data) as { run?: { id: string } }).run?.id === runId)
    .map((row) => row.type);
}

/** The run's work picked up a re-send `at` (a lane renews the lease as it starts a step). */
async function pickUp(runId: string, at: number): Promise<void> {
  await env.DB.prepare("UPDATE work_leases SET active_from = ? WHERE subject_id = ?")
    .bind(new Date(at).toISOString(), runId)
    .run();
}

async function getRun(runId: string): Promise<RunDto> {
  return expectJson<RunDto>(await api.get(`/runs/${runId}`), 200);
}

describe("the crash sweep on runs", () => {
  it("waits for a deferred run's start, then re-sends it; delivered twice, it completes once", async () => {
    const start = Date.now();
    const runId = await deferredRun();
    await backdate("runs", runId, 2 * LEASE_MS);
    const { env: recording, queues } = recordingEnv();
    // Its lease runs from its deferred start, so it is not taken before that.
    expect((await sweepAfter(recording, 0, start)).runs.resent).toEqual([]);
    const due = start + DEFERRED_START_SECONDS * 1000;
    expect((await sweepAfter(recording, 1, due)).runs.resent).toEqual([runId]);
    // The re-send is still the work of the request that created the run.
    const message = {
      type: "run-analysis" as const,
      run_id: runId,
      workspace_id: workspaceId,
      request_id: "deferred-run",
    };
    expect(queues.ANALYSIS_QUEUE.sent).toEqual([message]);

    const ports = createPorts(env);
    await Promise.all([
      executeRun(createDeps(env, ports), message),
      executeRun(createDeps(env, ports), message),
    ]);
    await executeRun(createDeps(env, ports), message);
    const run = await getRun(runId);
    expect(run.status).toBe("completed");
    expect(run.analysis.answer_references).toHaveLength(SAFETY_PROFILE.answer_specs.length);
    expect(await runEvents(runId)).toEqual(["run.completed"]);
  });

  it("ends a running run whose cancel was requested after its work was lost", async () => {
    const runId = await orphanedRun();
    const canceling = await expectJson<RunDto>(await api.post(`/runs/${runId}/cancel`, {}), 200);
    expect(canceling).toMatchObject({
      status: "processing",
      analysis: { cancel_requested: true },
    });
    const { env: recording, queues } = recordingEnv();
    // The cancel itself was progress: nothing happens within its lease.
    expect((await sweepAfter(recording, 0)).runs.canceled).toEqual([]);
    expect((await sweepAfter(recording, 1)).runs.canceled).toEqual([runId]);
    expect(queues.ANALYSIS_QUEUE.sent).toEqual([]);
    expect(await getRun(runId)).toMatchObject({
      status: "canceled",
      analysis: { sub_state: "canceled" },
    });
    expect(await runEvents(runId)).toEqual(["run.canceled"]);
  });

  it("re-sends a run whose re-sends are never picked up (a backlog), and never fails it for that", async () => {
    const runId = await orphanedRun();
    const { env: recording, queues } = recordingEnv();
    const start = Date.now();
    for (let attempt = 0; attempt < MAX_SWEEP_TRIES + 2; attempt++)
      expect((await sweepAfter(recording, 1 + 1.1 * attempt, start)).runs.resent).toEqual([runId]);
    expect(queues.ANALYSIS_QUEUE.sent).toHaveLength(MAX_SWEEP_TRIES + 2);
    expect(await getRun(runId)).toMatchObject({ status: "processing" });
  });

  it(`fails a run that makes no progress after ${MAX_SWEEP_TRIES} re-sends`, async () => {
    const runId = await orphanedRun();
    const { env: recording, queues } = recordingEnv();
    // Its begin was progress: the first re-send comes a lease after it.
    const start = Date.now();
    expect((await sweepAfter(recording, 0, start)).runs.resent).toEqual([]);
    for (let attempt = 0; attempt < MAX_SWEEP_TRIES; attempt++) {
      const at = start + (1 + 1.1 * attempt) * LEASE_MS + 1000;
      expect((await sweepAfter(recording, 1 + 1.1 * attempt, start)).runs.resent).toEqual([runId]);
      // Each re-send is picked up, and then stops again.
      await pickUp(runId, at + 1);
    }
    expect(queues.ANALYSIS_QUEUE.sent).toHaveLength(MAX_SWEEP_TRIES);
    expect((await sweepAfter(recording, 1 + 1.1 * MAX_SWEEP_TRIES, start)).runs.failed).toEqual([
      runId,
    ]);
    const run = await getRun(runId);
    expect(run).toMatchObject({ status: "failed", analysis: { result_state: "error" } });
    expect(run.analysis.error).toMatchObject({
      code: "execution_stalled",
      next_action: expect.stringContaining("Start the run again"),
    });
    expect(await runEvents(runId)).toEqual(["run.failed"]);
  });
});
