import {
  createExecutionContext,
  createMessageBatch,
  getQueueResult,
  runInDurableObject,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { RunStatus } from "../../../src/db/repos/runs";
import { isLegal } from "../../../src/durable-objects/run-coordinator";
import { createPorts } from "../../../src/ports";
import { consumeAnalysisDeadLetters } from "../../../src/queues/analysis";
import type { RunDto } from "../../../src/routes/runs/schemas";
import { createDeps } from "../../../src/services/deps";
import type { RunOutcome } from "../../../src/services/runs/outcome";
import { type Client, expectJson, newTenant } from "../../helpers/harness";
import { outbox, uploadFixture, waitForFinal } from "../../helpers/processing";
import { createProfile } from "../../helpers/runs";

let api: Client;
let workspaceId: string;
let videoId: string;
let profileId: string;

beforeAll(async () => {
  ({ api, workspaceId } = await newTenant());
  videoId = (await waitForFinal(api, (await uploadFixture(api, "silent.mp4")).id)).id;
  profileId = await createProfile(api);
}, 60_000);

/** A run that waits in the queue (execute_now: false), so only the test moves it. */
async function deferredRun(): Promise<string> {
  const run = await expectJson<RunDto>(
    await api.post("/runs", { source_ids: [videoId], profile_id: profileId, execute_now: false }),
    202,
  );
  return run.id;
}

async function rowStatus(runId: string): Promise<RunStatus> {
  const row = await env.DB.prepare("SELECT status FROM runs WHERE id = ?")
    .bind(runId)
    .first<{ status: RunStatus }>();
  return row?.status ?? "failed";
}

function outcomeFor(runId: string): RunOutcome {
  return {
    answers: [],
    output: {
      id: `snap_out_${runId}`,
      runId,
      kind: "output",
      content: {},
      createdAt: new Date().toISOString(),
    },
    usage: {
      input_tokens: 0,
      output_tokens: 0,
      cached_input_tokens: 0,
      total_tokens: 0,
      media_seconds: 0,
    },
    limitations: [],
    resultState: "not_checked",
    reasonCode: null,
    engine: "test",
  };
}

const OPERATIONS = ["begin", "checkpoint", "finish", "fail", "cancel"] as const;

describe("the run state machine", () => {
  it("never makes an illegal move under any interleaving of run, cancel and redelivered messages", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...OPERATIONS), { minLength: 1, maxLength: 8 }),
        async (operations) => {
          const runId = await deferredRun();
          const coordinator = env.RUNS.getByName(runId);
          let previous: RunStatus = "queued";
          for (const operation of operations) {
            if (operation === "begin") await coordinator.begin();
            if (operation === "checkpoint") await coordinator.checkpoint();
            if (operation === "finish") await coordinator.finish(outcomeFor(runId));
            if (operation === "fail") {
              await coordinator.fail(
                { code: "execution_failed", title: "t", detail: "d", next_action: "n" },
                ["execution_failed"],
              );
            }
            if (operation === "cancel") await coordinator.cancel();
            const state = await coordinator.current();
            const status = state?.status ?? "queued";
            expect(
              status === previous || isLegal(previous, status),
              `${previous} → ${status} after ${operation}`,
            ).toBe(true);
            expect(await rowStatus(runId)).toBe(status);
            previous = status;
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it("cancels a queued run at once and announces it; a final run is returned unchanged", async () => {
    const runId = await deferredRun();
    const canceled = await expectJson<RunDto>(await api.post(`/runs/${runId}/cancel`), 200);
    expect(canceled).toMatchObject({ status: "canceled", analysis: { sub_state: "canceled" } });
    const again = await expectJson<RunDto>(await api.post(`/runs/${runId}/cancel`), 200);
    expect(again.status).toBe("canceled");
    expect(again.updated_at).toBe(canceled.updated_at);
    const events = (await outbox(workspaceId)) as unknown as {
      type: string;
      data: { run?: { id: string } };
    }[];
    expect(events.filter((e) => e.type === "run.canceled" && e.data.run?.id === runId)).toEqual([
      { type: "run.canceled", data: { run: canceled } },
    ]);
    expect(await env.RUNS.getByName(runId).begin()).toBe(false);
  });

  it("asks a processing run to stop; it stops at its next step", async () => {
    const runId = await deferredRun();
    const coordinator = env.RUNS.getByName(runId);
    expect(await coordinator.begin()).toBe(true);
    const asked = await expectJson<RunDto>(await api.post(`/runs/${runId}/cancel`), 200);
    expect(asked).toMatchObject({ status: "processing", analysis: { cancel_requested: true } });
    expect(await coordinator.checkpoint()).toBe(false);
    expect((await expectJson<RunDto>(await api.get(`/runs/${runId}`), 200)).status).toBe(
      "canceled",
    );
    expect(await coordinator.finish(outcomeFor(runId))).toBe("canceled");
  });

  it("catches up with D1 after a crash between its batch and its own storage: no second move", async () => {
    const runId = await deferredRun();
    const coordinator = env.RUNS.getByName(runId);
    expect(await coordinator.begin()).toBe(true);
    expect(await coordinator.finish(outcomeFor(runId))).toBe("completed");
    const completed = await expectJson<RunDto>(await api.get(`/runs/${runId}`), 200);
    // The process died after the D1 batch, before the object remembered the move.
    await runInDurableObject(coordinator, async (_instance, state) => {
      await state.storage.put("state", { runId, status: "processing", cancelRequested: false });
    });
    expect(await coordinator.finish(outcomeFor(runId))).toBe("completed");
    const error = { code: "execution_failed", title: "t", detail: "d", next_action: "n" };
    expect(await coordinator.fail(error, [])).toBe("completed");
    expect(await coordinator.begin()).toBe(false);
    expect(await expectJson<RunDto>(await api.get(`/runs/${runId}`), 200)).toEqual(completed);
    const events = (await outbox(workspaceId)) as unknown as {
      type: string;
      data: { run?: { id: string } };
    }[];
    const announced = events.filter((e) => e.data.run?.id === runId);
    expect(announced.map((e) => e.type)).toEqual(["run.completed"]);
  });

  it("fails a run whose message landed in the dead-letter queue, with a structured error", async () => {
    const runId = await deferredRun();
    const batch = createMessageBatch("analysis-runs-dlq", [
      {
        id: "d1",
        timestamp: new Date(),
        attempts: 6,
        body: { type: "run-analysis", run_id: runId, workspace_id: workspaceId },
      },
    ]);
    const ctx = createExecutionContext();
    await consumeAnalysisDeadLetters(batch, createDeps(env, createPorts(env)));
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual(["d1"]);
    const run = await expectJson<RunDto>(await api.get(`/runs/${runId}`), 200);
    expect(run).toMatchObject({
      status: "failed",
      analysis: {
        sub_state: "failed",
        result_state: "error",
        limitations: ["execution_failed"],
        error: { code: "execution_failed" },
      },
    });
    expect(run.analysis.error_message).toBe(run.analysis.error?.detail);
    expect((await outbox(workspaceId)).map((e) => e.type)).toContain("run.failed");
  });
});
