import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { ErrorScripts, scriptedErrorsFrom } from "../../../simulators/scripted-errors";
import { SimulatedAi } from "../../../simulators/workers-ai";
import { createPorts, type Ports } from "../../../src/ports";
import { pacedAi } from "../../../src/ports/ai/model-calls";
import { WorkersAiAnswerEngine } from "../../../src/ports/answer-engine/workers-ai";
import type { RunDto } from "../../../src/routes/runs/schemas";
import { createDeps } from "../../../src/services/deps";
import { executeRun } from "../../../src/services/runs/execute-run";
import { type Client, expectJson, newTenant } from "../../helpers/harness";
import { instantCalls } from "../../helpers/instant-calls";
import { uploadFixture, waitForFinal } from "../../helpers/processing";
import { createProfile, waitForRun } from "../../helpers/runs";
import { RecordingQueue } from "../../helpers/sweep";

// An analysis run over talk.mp4 whose answers come from the production answer engine over the
// simulated answer model, made to throw (SIMULATE_ERRORS): it is worked by hand, delivery by
// delivery, as the analysis queue would.
let api: Client;
let workspaceId: string;
let videoId: string;
let profileId: string;
const ANSWER_MODEL = "@cf/meta/llama-3.3-70b-instruct-fp8-fast";

beforeAll(async () => {
  ({ api, workspaceId } = await newTenant());
  videoId = (await waitForFinal(api, (await uploadFixture(api, "talk.mp4")).id)).id;
  profileId = await createProfile(api);
}, 60_000);

interface StoredAnswer {
  key: string;
  result_state: string;
  reason_code?: string;
  answer_payload: { summary: string; items: { result_state: string }[] };
}

/** Runs the profile with the answer model throwing `errors`; its answers and model calls. */
async function runWith(errors: string) {
  const simulated = new SimulatedAi({
    bucket: env.MEDIA_BUCKET,
    faults: { delay: async () => undefined, fails: () => false },
    vision: "refuse",
    errors: new ErrorScripts(scriptedErrorsFrom(errors)),
  });
  let calls = 0;
  const counted = {
    run: (model: string, inputs: unknown) => {
      if (model === ANSWER_MODEL) calls++;
      return simulated.run(model, inputs);
    },
  };
  const ai = pacedAi(counted, instantCalls());
  const engine = new WorkersAiAnswerEngine({ ai });
  const deps = createDeps({ ...env, ANALYSIS_QUEUE: new RecordingQueue() }, {
    ...createPorts(env),
    answerEngine: engine,
  } as Ports);
  const run = await expectJson<RunDto>(
    await api.post("/runs", { source_ids: [videoId], profile_id: profileId, execute_now: false }),
    202,
  );
  const message = { type: "run-analysis" as const, run_id: run.id, workspace_id: workspaceId };
  // The first delivery plans the steps and opens the lanes; the next ones work the steps.
  for (let i = 0; i < 4; i++) await executeRun(deps, message);
  const done = await waitForRun(api, run.id);
  const answers = await expectJson<{ data: StoredAnswer[] }>(
    await api.get(`/runs/${run.id}/answers`),
    200,
  );
  return { run: done, answers: answers.data, calls };
}

describe("a run whose answer model meets errors", () => {
  it("completes with not_checked answers naming an undocumented error, never failing", async () => {
    const { run, answers, calls } = await runWith("answers=unknown");
    expect(run.status, JSON.stringify(run)).toBe("completed");
    expect(run.analysis?.limitations ?? []).not.toContain("execution_failed");
    const asked = answers.filter((a) => a.reason_code === "model_error");
    expect(asked.length, JSON.stringify(answers)).toBeGreaterThan(0);
    for (const answer of asked) {
      expect(answer.result_state).toBe("not_checked");
      expect(answer.answer_payload.summary).toContain(
        'failed 3 times with an error Cloudflare does not document ("internal failure (simulated: SIMULATE_ERRORS)")',
      );
      expect(answer.answer_payload.items.every((i) => i.result_state === "not_checked")).toBe(true);
    }
    // Bounded: three attempts for each call the engine made, never a retried run.
    expect(calls % 3).toBe(0);
    expect(answers.some((a) => a.result_state === "found")).toBe(false);
  });

  it("keeps the service's own reading when JSON mode's documented failure refuses the call", async () => {
    const { run, answers } = await runWith("answers=json-mode");
    expect(run.status).toBe("completed");
    const vests = answers.find((a) => a.key === "vests_required");
    expect(vests, JSON.stringify(answers)).toMatchObject({ result_state: "found" });
    expect(vests?.answer_payload.summary).toContain("the service's own reading");
    expect(answers.some((a) => a.reason_code === "model_error")).toBe(false);
  });

  it("answers as usual once a documented transient code passes", async () => {
    const { run, answers, calls } = await runWith("answers=3040x2");
    expect(run.status).toBe("completed");
    expect(calls).toBeGreaterThan(2);
    expect(answers.find((a) => a.key === "vests_required")).toMatchObject({
      result_state: "found",
    });
    expect(answers.some((a) => a.reason_code === "model_error")).toBe(false);
  });
});
