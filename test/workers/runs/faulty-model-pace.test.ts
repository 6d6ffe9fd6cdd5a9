import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { faultsFrom } from "../../../simulators/faults";
import { SimulatedAi } from "../../../simulators/workers-ai";
import { RateWindow } from "../../../simulators/workers-ai/rate-window";
import type { Env } from "../../../src/env";
import { createPorts } from "../../../src/ports";
import { type CallEnvironment, pacedAi } from "../../../src/ports/ai/model-calls";
import { WorkersAiAnswerEngine } from "../../../src/ports/answer-engine/workers-ai";
import { handleQueue } from "../../../src/queues/index";
import type { RunDto } from "../../../src/routes/runs/schemas";
import { type Client, expectJson, newTenant } from "../../helpers/harness";
import { attemptsWithin } from "../../helpers/instant-calls";
import { uploadFixture, waitForFinal } from "../../helpers/processing";
import { createProfile, SAFETY_PROFILE } from "../../helpers/runs";
import { RecordingQueue } from "../../helpers/sweep";
import { PlatformQueue } from "../processing/queue-platform";

// An analysis run of four answer steps over talk.mp4, answered by the production answer engine
// over the simulated answer model, its lane delivered by the analysis queue as the platform
// runs it (wrangler.toml, [env.production]). With 60 % of model calls failing, some steps end
// their retries with the call still failing: the run must go on at once, not idle until the
// sweep: it completes within the queue's own deliveries, and no retry asks for a delay. (What
// it asserts is counted, not timed: a wall-clock ratio failed on a busy machine.)

const FAULT_RATE = "0.6";

/**
 * Three attempts a call: the backoff between them passes on a clock of its own, so a step that
 * ends its retries does so at once, and what the test times is how the run goes on after it.
 */
const THREE_ATTEMPTS: CallEnvironment = attemptsWithin(3500);

/** Sixteen questions: answer steps of five, five, five and one, then the finish step. */
const SPECS = Array.from({ length: 16 }, (_, i) => {
  const spec = SAFETY_PROFILE.answer_specs[i % SAFETY_PROFILE.answer_specs.length];
  return { ...spec, answer_key: `${spec?.answer_key}_${i}` };
});

let api: Client;
let workspaceId: string;
let videoId: string;
let profileId: string;

beforeAll(async () => {
  ({ api, workspaceId } = await newTenant());
  videoId = (await waitForFinal(api, (await uploadFixture(api, "talk.mp4")).id)).id;
  profileId = await createProfile(api, { ...SAFETY_PROFILE, answer_specs: SPECS });
}, 60_000);

/** A seeded PRNG (mulberry32), so the faults are the same from run to run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Runs the profile with `faultRate` of model calls failing; how long it took, and its end. */
async function timedRun(faultRate: string) {
  const queue = new PlatformQueue(
    "analysis-runs",
    { maxBatchSize: 20, maxRetries: 5, maxConcurrency: 3 },
    { msPerSecond: 10, duplicateEvery: Number.POSITIVE_INFINITY },
  );
  const target: Env = { ...env, ANALYSIS_QUEUE: queue };
  let calls = 0;
  let failed = 0;
  const simulated = new SimulatedAi({
    bucket: env.MEDIA_BUCKET,
    faults: faultsFrom({ SIMULATE_FAULT_RATE: faultRate }, seeded(44)),
    vision: "refuse",
    rates: new RateWindow(),
  });
  const counted = {
    run: async (model: string, inputs: unknown) => {
      calls++;
      return simulated.run(model, inputs).catch((error: unknown) => {
        failed++;
        throw error;
      });
    },
  };
  const answerEngine = new WorkersAiAnswerEngine({ ai: pacedAi(counted, THREE_ATTEMPTS) });
  const ports = { ...createPorts(target), answerEngine };
  const run = await expectJson<RunDto>(
    await api.post("/runs", { source_ids: [videoId], profile_id: profileId, execute_now: false }),
    202,
  );
  const started = Date.now();
  await queue.send({ type: "run-analysis", run_id: run.id, workspace_id: workspaceId });
  const report = await queue.drain([(batch) => handleQueue(batch, target, ports)]);
  const ms = Date.now() - started;
  const done = await expectJson<RunDto>(await api.get(`/runs/${run.id}`), 200);
  return { ms, run: done, report, calls, failed };
}

/** How many of the run's steps are stored as done. */
async function doneSteps(runId: string): Promise<number> {
  const row = await env.DB.prepare(
    "SELECT count(*) AS n FROM run_steps WHERE run_id = ? AND state = 'done'",
  )
    .bind(runId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

describe("a run whose model fails 60 % of calls", () => {
  it("goes on at once after a step ends its retries: done within the queue's deliveries, no retry delayed", async () => {
    const clean = await timedRun("0");
    expect(clean.run.status, JSON.stringify(clean.run)).toBe("completed");
    expect(clean.failed).toBe(0);
    expect(clean.report.retries).toBe(0);

    const faulty = await timedRun(FAULT_RATE);
    const summary = JSON.stringify({ clean: clean.ms, faulty: faulty.ms, report: faulty.report });
    expect(faulty.run.status, summary).toBe("completed");
    // Steps did end their retries (the lane's message was retried), none was dead-lettered,
    // and every answer step and the finish step were stored.
    expect(faulty.report.retries, summary).toBeGreaterThan(0);
    expect(faulty.report.deadLettered, summary).toEqual([]);
    expect(await doneSteps(faulty.run.id)).toBe(5);
    expect(faulty.failed / faulty.calls, summary).toBeGreaterThan(0.4);
    // Every retry of the lane came back at once: none waited for a delay, a lease or the sweep.
    expect(faulty.report.retryDelaySeconds, summary).toBe(0);
  }, 60_000);

  it("gives the step back and retries its lane with no further wait once a call ends its retries", async () => {
    const failing = new SimulatedAi({
      bucket: env.MEDIA_BUCKET,
      faults: faultsFrom({ SIMULATE_FAULT_RATE: "1" }),
      vision: "refuse",
      rates: new RateWindow(),
    });
    const answerEngine = new WorkersAiAnswerEngine({ ai: pacedAi(failing, THREE_ATTEMPTS) });
    const target: Env = { ...env, ANALYSIS_QUEUE: new RecordingQueue() };
    const ports = { ...createPorts(target), answerEngine };
    const run = await expectJson<RunDto>(
      await api.post("/runs", { source_ids: [videoId], profile_id: profileId, execute_now: false }),
      202,
    );
    const batch = createMessageBatch("analysis-runs", [
      {
        id: "lane",
        timestamp: new Date(),
        attempts: 1,
        body: { type: "run-analysis", run_id: run.id, workspace_id: workspaceId },
      },
    ]);
    const ctx = createExecutionContext();
    await handleQueue(batch, target, ports);
    const result = await getQueueResult(batch, ctx);
    // No delay of its own (the runtime reports a 0 as none): the queue's retry_delay, unset.
    expect(result.retryMessages.map((m) => [m.msgId, m.delaySeconds ?? 0])).toEqual([["lane", 0]]);
    const first = await env.DB.prepare(
      "SELECT state, claimed_until FROM run_steps WHERE run_id = ? AND position = 0",
    )
      .bind(run.id)
      .first();
    expect(first).toEqual({ state: "pending", claimed_until: null });
  });
});
