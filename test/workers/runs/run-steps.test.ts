import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { AnswerRequest } from "../../../src/answer-engine/types";
import { createPorts, type Ports } from "../../../src/ports";
import type { AnswerEngine } from "../../../src/ports/answer-engine/port";
import { consumeAnalysis } from "../../../src/queues/analysis";
import { createDeps, type Deps } from "../../../src/services/deps";
import { executeRun, QUESTIONS_PER_STEP } from "../../../src/services/runs/execute-run";
import { Invocation, WORKFLOW_LANES } from "../../../src/services/runs/run-lanes";
import { type Client, expectJson, newTenant } from "../../helpers/harness";
import { uploadFixture, waitForFinal } from "../../helpers/processing";
import { RecordingQueue } from "../../helpers/sweep";
import { allFindings, startWorkflowRun, waitForWorkflowRun } from "../findings/helpers";

// Twelve rules over one video: two answer steps (eight rules, then four), then the finish step.
const RULES = Array.from({ length: 12 }, (_, i) => ({
  id: `rule-${i}`,
  title: `Rule ${i}: operators wear high visibility vests`,
  description: "Forklift operators must wear high visibility vests.",
}));

let api: Client;
let workspaceId: string;
let video: string;
let workflowId: string;

beforeAll(async () => {
  ({ api, workspaceId } = await newTenant());
  video = (await waitForFinal(api, (await uploadFixture(api, "talk.mp4")).id)).id;
  const rulebook = await expectJson<{ id: string }>(
    await api.post("/rulebooks", { name: "Steps", content: "", rules: RULES }),
    201,
  );
  const workflow = await expectJson<{ id: string }>(
    await api.post("/workflows", {
      name: "Steps",
      playbook: "Judge what the briefing says.",
      rulebook_id: rulebook.id,
      source_ids: [video],
    }),
    201,
  );
  workflowId = workflow.id;
}, 90_000);

/** The local engine, counting the questions it is asked and failing where the test says. */
class CountingEngine implements AnswerEngine {
  readonly asked: string[] = [];
  failAt = Number.POSITIVE_INFINITY;
  onAnswer: () => Promise<void> = async () => undefined;
  constructor(private readonly inner: AnswerEngine) {}
  get id() {
    return this.inner.id;
  }
  async answer(request: AnswerRequest) {
    this.asked.push(request.spec.description ?? "");
    if (this.asked.length >= this.failAt) throw new Error("the process died mid-step");
    await this.onAnswer();
    return this.inner.answer(request);
  }
}

/** Deps whose queue only records (the test delivers) and whose engine counts. */
function world(): { deps: Deps; engine: CountingEngine; queue: RecordingQueue } {
  const ports = createPorts(env);
  const engine = new CountingEngine(ports.answerEngine);
  const queue = new RecordingQueue();
  const deps = createDeps({ ...env, ANALYSIS_QUEUE: queue }, {
    ...ports,
    answerEngine: engine,
  } as Ports);
  return { deps, engine, queue };
}

/**
 * A run started by its first delivery, which plans its steps and sends its lanes (to a queue
 * that only records: each later `executeRun` is one lane's delivery).
 */
async function plannedRun(deps: Deps, queue: RecordingQueue): Promise<string> {
  const runId = (await startWorkflowRun(api, workflowId, { execute_now: false })).id;
  await executeRun(deps, message(runId));
  expect(queue.sent.filter((m) => (m as { run_id: string }).run_id === runId)).toHaveLength(
    WORKFLOW_LANES,
  );
  return runId;
}

function message(runId: string) {
  return { type: "run-analysis" as const, run_id: runId, workspace_id: workspaceId };
}

/** A continuation of the run's lane: still the work of the request that created the run. */
async function handedOn(runId: string) {
  const row = await env.DB.prepare("SELECT request_id FROM runs WHERE id = ?")
    .bind(runId)
    .first<{ request_id: string }>();
  return { ...message(runId), request_id: row?.request_id };
}

async function steps(runId: string) {
  const { results } = await env.DB.prepare(
    "SELECT position, kind, state, model_calls FROM run_steps WHERE run_id = ? ORDER BY position",
  )
    .bind(runId)
    .all<{ position: number; kind: string; state: string }>();
  return results;
}

/** Lets every claim run out, as it does once a crashed delivery stops renewing it. */
async function expireClaims(runId: string) {
  await env.DB.prepare("UPDATE run_steps SET claimed_until = ? WHERE run_id = ?")
    .bind("2000-01-01T00:00:00.000Z", runId)
    .run();
}

describe("a run's persisted steps", () => {
  it("resumes after a crash mid-step from the last stored step: no question is asked twice but the lost step's", async () => {
    const { deps, engine, queue } = world();
    const runId = await plannedRun(deps, queue);
    const first = QUESTIONS_PER_STEP.workflow;
    engine.failAt = first + 1;
    await expect(executeRun(deps, message(runId))).rejects.toThrow("died mid-step");
    expect((await steps(runId)).map((s) => s.state)).toEqual(["done", "pending", "pending"]);
    // Stored, but not shown: the run has not completed.
    expect(await allFindings(api, `run_id=${runId}`)).toHaveLength(0);

    await expireClaims(runId);
    engine.failAt = Number.POSITIVE_INFINITY;
    await executeRun(deps, message(runId));
    const run = await waitForWorkflowRun(api, runId);
    expect(run.status).toBe("completed");
    expect((await steps(runId)).map((s) => s.state)).toEqual(["done", "done", "done"]);
    // The first step's rules once each; the lost step's at most twice (once lost, once kept).
    expect(engine.asked).toHaveLength(first + 1 + (RULES.length - first));
    const findings = await allFindings(api, `run_id=${runId}`);
    expect(findings.map((f) => f.rule_id).sort()).toEqual(RULES.map((r) => r.id).sort());
  });

  it("works a step once under duplicate deliveries: a claimed step is left to its holder", async () => {
    const { deps, engine, queue } = world();
    const runId = await plannedRun(deps, queue);
    await Promise.all([
      executeRun(deps, message(runId)),
      executeRun(deps, message(runId)),
      executeRun(deps, message(runId)),
    ]);
    expect((await waitForWorkflowRun(api, runId)).status).toBe("completed");
    expect(engine.asked).toHaveLength(RULES.length);
    expect(await allFindings(api, `run_id=${runId}`)).toHaveLength(RULES.length);
  });

  it("takes a cancel within one step, even while that step waits on the model", async () => {
    const { deps, engine, queue } = world();
    const runId = await plannedRun(deps, queue);
    let canceled = false;
    engine.onAnswer = async () => {
      if (canceled) return;
      canceled = true;
      const answer = await expectJson<{ status: string; workflow: { cancel_requested: boolean } }>(
        await api.post(`/runs/${runId}/cancel`, {}),
        200,
      );
      expect(answer.status).toBe("processing");
    };
    await executeRun(deps, message(runId));
    const run = await waitForWorkflowRun(api, runId);
    expect(run.status).toBe("canceled");
    // The step under way finished; no other step started.
    expect(engine.asked).toHaveLength(QUESTIONS_PER_STEP.workflow);
    expect(await allFindings(api, `run_id=${runId}`)).toHaveLength(0);
  });

  it("hands a lane to a new message once the invocation's budget is spent", async () => {
    const { deps, engine, queue } = world();
    const runId = await plannedRun(deps, queue);
    const spent = new Invocation({
      ...deps,
      config: { ...deps.config, RUN_INVOCATION_SECONDS: "1" },
    });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const before = queue.sent.length;
    await executeRun(deps, message(runId), spent);
    expect(engine.asked).toHaveLength(0);
    // The lane handed itself to a new message instead of starting a step.
    expect(queue.sent.slice(before)).toEqual([await handedOn(runId)]);
    await executeRun(deps, message(runId));
    expect((await waitForWorkflowRun(api, runId)).status).toBe("completed");
    expect(engine.asked).toHaveLength(RULES.length);
  });

  it("sends the lanes of a batch that go on together, in one batch, once the batch ends", async () => {
    const { deps, engine, queue } = world();
    const runId = await plannedRun(deps, queue);
    const batches: unknown[][] = [];
    queue.sendBatch = async (messages) => {
      batches.push([...messages].map((m) => m.body));
      return { metadata: { metrics: { backlogCount: 0, backlogBytes: 0 } } };
    };
    const budgeted = { ...deps, config: { ...deps.config, RUN_INVOCATION_SECONDS: "1" } };
    const deadline = Date.now() + 1000;
    // Each step's first question outlasts the invocation's budget, so both lanes that get a
    // step go on after it; the third finds nothing to claim and ends.
    engine.onAnswer = () => new Promise((resolve) => setTimeout(resolve, deadline - Date.now()));
    const before = queue.sent.length;
    await consumeAnalysis(laneBatch(runId, 3), budgeted);
    expect(queue.sent.slice(before)).toEqual([]);
    const lane = await handedOn(runId);
    expect(lane.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(batches).toEqual([[lane, lane]]);
    expect((await steps(runId)).map((s) => s.state)).toEqual(["done", "done", "pending"]);
    engine.onAnswer = async () => undefined;
    await executeRun(deps, message(runId));
    expect((await waitForWorkflowRun(api, runId)).status).toBe("completed");
  });
});

/** A queue batch of `lanes` messages of the run, as the analysis queue delivers it. */
function laneBatch(runId: string, lanes: number): MessageBatch {
  const messages = Array.from({ length: lanes }, (_, i) => ({
    id: `lane-${i}`,
    timestamp: new Date(),
    body: message(runId),
    attempts: 1,
    ack: () => undefined,
    retry: () => undefined,
  }));
  return {
    queue: "analysis-runs",
    messages,
    ackAll: () => undefined,
    retryAll: () => undefined,
  } as unknown as MessageBatch;
}
