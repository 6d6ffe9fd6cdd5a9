import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { answerFromPrompt } from "../../../simulators/workers-ai/answers";
import type { RunUsage } from "../../../src/domain/runs";
import { createPorts, type Ports } from "../../../src/ports";
import type { AnswerEngine } from "../../../src/ports/answer-engine/port";
import { ANSWER_MODEL } from "../../../src/ports/answer-engine/workers-ai-prompt";
import type { WorkflowRunDto } from "../../../src/routes/runs/schemas";
import { createDeps } from "../../../src/services/deps";
import type { UsageReportDto } from "../../../src/services/presenters/usage";
import { executeRun } from "../../../src/services/runs/execute-run";
import { expectJson, newTenant } from "../../helpers/harness";
import { uploadFixture, waitForFinal } from "../../helpers/processing";
import { RecordingQueue } from "../../helpers/sweep";
import { world as workersAiWorld } from "../answer-engine/recording-ai";
import { startWorkflowRun, waitForWorkflowRun, workflowOver } from "../findings/helpers";

/** The production answer engine over its simulator, pausing its first batch until `resume`. */
function pausingWorld() {
  const { engine, ai } = workersAiWorld(answerFromPrompt);
  let paused = false;
  let resume = () => {};
  const resumed = new Promise<void>((resolve) => {
    resume = resolve;
  });
  let reached = () => {};
  const answered = new Promise<void>((resolve) => {
    reached = resolve;
  });
  const pausing: AnswerEngine = {
    id: engine.id,
    answer: (request) => engine.answer(request),
    answerMany: async (requests) => {
      const batch = await engine.answerMany(requests);
      if (!paused) {
        paused = true;
        reached();
        await resumed;
      }
      return batch;
    },
  };
  return { ai, pausing, engine, answered, resume };
}

function depsWith(answerEngine: AnswerEngine) {
  return createDeps({ ...env, ANALYSIS_QUEUE: new RecordingQueue() }, {
    ...createPorts(env),
    answerEngine,
  } as Ports);
}

describe("a workflow run's usage", () => {
  it("counts a step's model calls once when a delivery stores it after its claim ran out", async () => {
    const { api, workspaceId } = await newTenant(["*"]);
    const talk = (await waitForFinal(api, (await uploadFixture(api, "talk.mp4")).id)).id;
    const { workflowId } = await workflowOver(api, [talk]);
    const world = pausingWorld();
    const runId = (await startWorkflowRun(api, workflowId, { execute_now: false })).id;
    const message = { type: "run-analysis" as const, run_id: runId, workspace_id: workspaceId };
    // The first delivery plans the steps: one answer step (three rules), then the finish.
    await executeRun(depsWith(world.engine), message);
    const late = executeRun(depsWith(world.pausing), message);
    await world.answered;
    // Its claim runs out while it stalls; another delivery takes the step over and ends the run.
    await env.DB.prepare("UPDATE run_steps SET claimed_until = ? WHERE run_id = ?")
      .bind("2000-01-01T00:00:00.000Z", runId)
      .run();
    await executeRun(depsWith(world.engine), message);
    world.resume();
    await late;
    const run = await waitForWorkflowRun(api, runId);
    expect(run.status).toBe("completed");

    // Both deliveries asked the model; the step, and the calls it stored, count once.
    const usage: RunUsage = run.workflow.provenance.usage;
    expect(usage.model_calls).toBeGreaterThan(0);
    expect(world.ai.calls).toHaveLength(2 * (usage.model_calls ?? 0));
    const findings = await env.DB.prepare("SELECT count(*) AS n FROM findings WHERE run_id = ?")
      .bind(runId)
      .first<{ n: number }>();
    const report = await expectJson<UsageReportDto>(await api.get("/usage"), 200);
    expect(report.totals).toMatchObject({ runs: 1, findings: findings?.n });
    expect(report.totals.models).toEqual([
      {
        model: ANSWER_MODEL,
        calls: usage.model_calls,
        input_tokens: usage.input_tokens,
        output_tokens: usage.output_tokens,
        audio_seconds: 0,
      },
    ]);
  });

  it("names its model calls on the wire, and reads as nothing used before it finishes", async () => {
    const { api } = await newTenant(["*"]);
    const talk = (await waitForFinal(api, (await uploadFixture(api, "talk.mp4")).id)).id;
    const { workflowId } = await workflowOver(api, [talk]);
    const queued = await startWorkflowRun(api, workflowId, { execute_now: false });
    expect(queued.workflow.provenance.usage).toMatchObject({ model_calls: 0, total_tokens: 0 });
    const local = await waitForWorkflowRun(api, (await startWorkflowRun(api, workflowId)).id);
    // The local rules call no model.
    expect(local.workflow.provenance.usage).toMatchObject({ model_calls: 0, input_tokens: 0 });
    const read = await expectJson<WorkflowRunDto>(await api.get(`/runs/${local.id}`), 200);
    expect(read.workflow.provenance.usage).toEqual(local.workflow.provenance.usage);
  });
});
