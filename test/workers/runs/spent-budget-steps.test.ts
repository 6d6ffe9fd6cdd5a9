import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { findingsOfRun } from "../../../src/db/repos/findings";
import { runSpend } from "../../../src/db/repos/run-steps";
import { allAnswers, findRunById } from "../../../src/db/repos/runs";
import { runSteps } from "../../../src/db/schema";
import { createPorts, type Ports } from "../../../src/ports";
import type { AnswerEngine } from "../../../src/ports/answer-engine/port";
import { createDeps, type Deps } from "../../../src/services/deps";
import { executeRun } from "../../../src/services/runs/execute-run";
import { Execution } from "../../../src/services/runs/execution";
import { loadRunContext } from "../../../src/services/runs/run-context";
import { Invocation, WORKFLOW_LANES } from "../../../src/services/runs/run-lanes";
import { workflowStep } from "../../../src/services/runs/workflow-step";
import { type Client, expectJson, newTenant } from "../../helpers/harness";
import { uploadFixture, waitForFinal } from "../../helpers/processing";
import { RecordingQueue } from "../../helpers/sweep";
import { allFindings, startWorkflowRun, waitForWorkflowRun } from "../findings/helpers";

// Steps after a run's budget ran out ask no model: a lane stores a group of them together.

const RULE = {
  title: "Operators wear high visibility vests",
  description: "Forklift operators must wear high visibility vests.",
};

let api: Client;
let workspaceId: string;
let video: string;

beforeAll(async () => {
  ({ api, workspaceId } = await newTenant());
  video = (await waitForFinal(api, (await uploadFixture(api, "talk.mp4")).id)).id;
}, 90_000);

/** Deps whose queue only records (the test delivers) and whose engine records each question. */
function world(): { deps: Deps; asked: string[]; queue: RecordingQueue } {
  const ports = createPorts(env);
  const asked: string[] = [];
  const answerEngine: AnswerEngine = {
    id: ports.answerEngine.id,
    answer: (request) => {
      asked.push(request.spec.description ?? "");
      return ports.answerEngine.answer(request);
    },
  };
  const queue = new RecordingQueue();
  const deps = createDeps({ ...env, ANALYSIS_QUEUE: queue }, { ...ports, answerEngine } as Ports);
  return { deps, asked, queue };
}

function message(runId: string) {
  return { type: "run-analysis" as const, run_id: runId, workspace_id: workspaceId };
}

/**
 * A workflow run of `count` rules over the video, planned by its first delivery (its lanes
 * recorded, not sent), whose first step spent more than any profile gives, as a long run's
 * early steps do.
 */
async function spentRun(deps: Deps, queue: RecordingQueue, count: number): Promise<string> {
  const rules = Array.from({ length: count }, (_, i) => ({ ...RULE, id: `spent-${i}` }));
  const rulebook = await expectJson<{ id: string }>(
    await api.post("/rulebooks", { name: "Spent", content: "", rules }),
    201,
  );
  const workflow = await expectJson<{ id: string }>(
    await api.post("/workflows", {
      name: "Spent",
      playbook: "Judge what the briefing says.",
      rulebook_id: rulebook.id,
      source_ids: [video],
    }),
    201,
  );
  const runId = (await startWorkflowRun(api, workflow.id, { execute_now: false })).id;
  await executeRun(deps, message(runId));
  expect(queue.sent).toHaveLength(WORKFLOW_LANES);
  await env.DB.prepare(
    "UPDATE run_steps SET state = 'done', input_tokens = 1000000000 WHERE run_id = ? AND position = 0",
  )
    .bind(runId)
    .run();
  return runId;
}

describe("a run whose budget is spent", () => {
  it("stores all its remaining steps together, each not_checked, asking no model", async () => {
    const { deps, asked, queue } = world();
    // A hundred rules over the video: thirteen answer steps (twelve of eight, one of four),
    // then the finish step; the first is spent.
    const runId = await spentRun(deps, queue, 100);
    const invocation = new Invocation(deps);
    await executeRun(deps, message(runId), invocation);
    expect((await waitForWorkflowRun(api, runId)).status).toBe("completed");
    expect(asked).toHaveLength(0);
    // One claim and one batch stored the twelve spent steps: one step of the invocation's
    // allowance, the finish step another.
    expect(invocation.steps).toBe(2);
    const { results } = await env.DB.prepare(
      "SELECT updated_at, limitations, model_calls FROM run_steps WHERE run_id = ? AND kind = 'answer' AND position > 0",
    )
      .bind(runId)
      .all<{ updated_at: string; limitations: string; model_calls: number }>();
    expect(results).toHaveLength(12);
    expect(new Set(results.map((r) => r.updated_at)).size).toBe(1);
    expect(new Set(results.map((r) => `${r.limitations} ${r.model_calls}`))).toEqual(
      new Set(['["budget_exhausted"] 0']),
    );
    const findings = await allFindings(api, `run_id=${runId}`);
    expect(findings).toHaveLength(92);
    expect(new Set(findings.map((f) => `${f.result_state}/${f.reason_code}`))).toEqual(
      new Set(["not_checked/budget_exhausted"]),
    );
  });

  it("stores for each spent step the rows it would store alone, its video read whole", async () => {
    const { deps, queue } = world();
    // Twelve rules: step 0 (spent), then step 1 of four rules, then the finish step.
    const runId = await spentRun(deps, queue, 12);
    await executeRun(deps, message(runId));
    expect((await waitForWorkflowRun(api, runId)).status).toBe("completed");
    // Step 1 made again on its own, as a step that calls the engine reads its video.
    const run = await findRunById(deps.db, runId);
    if (!run) throw new Error("no run");
    const context = await loadRunContext(deps, run);
    if (context.kind !== "workflow") throw new Error("not a workflow run");
    const [step] = await deps.db
      .select()
      .from(runSteps)
      .where(and(eq(runSteps.runId, runId), eq(runSteps.position, 1)));
    if (!step) throw new Error("no step 1");
    const execution = new Execution(deps, run, await runSpend(deps.db, runId));
    const alone = await workflowStep(context, step, await context.video(video), execution, "t");
    const same = <T extends { id: string; createdAt: string }>(rows: T[]) =>
      rows.map(({ id: _id, createdAt: _at, ...rest }) => ({
        ...rest,
        ...("updatedAt" in rest ? { updatedAt: "t" } : {}),
      }));
    expect(alone.answers).toHaveLength(4);
    expect(same(await allAnswers(deps.db, runId))).toEqual(same(alone.answers));
    const byRule = (a: { ruleId: string }, b: { ruleId: string }) =>
      a.ruleId.localeCompare(b.ruleId);
    expect(same((await findingsOfRun(deps.db, runId)).sort(byRule))).toEqual(
      same(alone.findings.sort(byRule)),
    );
  });
});
