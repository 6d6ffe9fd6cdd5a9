import { describe, expect, it } from "vitest";
import { answerFromPrompt } from "../../../simulators/workers-ai/answers";
import type { AnswerRequest } from "../../../src/answer-engine/types";
import { TransientModelError } from "../../../src/ports/ai/model-calls";
import { MAX_QUESTIONS_PER_CALL } from "../../../src/ports/answer-engine/workers-ai-batch";
import type { AnswerAi } from "../../../src/ports/answer-engine/workers-ai-prompt";
import { request, talk } from "./fixtures";
import { RecordingAnswerAi, world } from "./recording-ai";

/** Questions over the safety talk, some stated in it and some not. */
const QUESTIONS = [
  "operators wear high visibility vests",
  "the loading dock is kept clear",
  "forklifts drive slowly near people",
  "spills are cleaned up at once",
  "emergency exits are not blocked",
  "ladders are held by a second person",
  "gloves are worn when handling pallets",
  "safety glasses are worn when cutting",
  "the shift starts with a safety briefing",
  "a fire extinguisher is within reach",
];

function requests(count: number, tenant = "ws_batch"): AnswerRequest[] {
  return QUESTIONS.slice(0, count).map((description, i) => ({
    ...request({ answer_type: "verdict", answer_key: `rule_${i}`, description }, [talk()]),
    tenant,
  }));
}

describe("WorkersAiAnswerEngine: several questions in one call", () => {
  it("judges up to eight questions over one video's evidence per call, each as a lone call would", async () => {
    const { ai, engine } = world(answerFromPrompt);
    const batch = await engine.answerMany(requests(QUESTIONS.length));
    expect(ai.calls).toHaveLength(Math.ceil(QUESTIONS.length / MAX_QUESTIONS_PER_CALL));
    expect(batch.modelCalls).toBe(ai.calls.length);
    const alone = world(answerFromPrompt);
    for (const [i, one] of requests(QUESTIONS.length).entries()) {
      const answer = await alone.engine.answer(one);
      expect(batch.answers[i]?.result_state, QUESTIONS[i]).toBe(answer.result_state);
      expect(batch.answers[i]?.answer_payload.evidence_summary.representative).toEqual(
        answer.answer_payload.evidence_summary.representative,
      );
    }
    expect(alone.ai.calls).toHaveLength(QUESTIONS.length);
    // Every call stays inside the output the model allows a batch.
    for (const call of ai.calls) expect(call.inputs.max_tokens).toBeLessThanOrEqual(4096);
  });

  it("asks a question the batched reply left out on its own", async () => {
    const { ai, engine } = world((inputs) => {
      const reply = answerFromPrompt(inputs) as {
        response: { answers?: { question_id: string }[] };
      };
      const answers = reply.response.answers;
      if (answers) reply.response.answers = answers.filter((a) => a.question_id !== "q2");
      return reply;
    });
    const batch = await engine.answerMany(requests(3));
    expect(ai.calls).toHaveLength(2);
    expect(batch.modelCalls).toBe(2);
    expect(batch.answers.map((a) => a.provenance.engine)).toEqual([
      "workers-ai-answers@4",
      "workers-ai-answers@4",
      "workers-ai-answers@4",
    ]);
  });

  it("paces a run's calls as its workspace's, so the limiter shares the rate between tenants", async () => {
    const tenants: string[] = [];
    const paced = new RecordingAnswerAi(answerFromPrompt);
    const aiForTenant = (tenant: string): AnswerAi => {
      tenants.push(tenant);
      return paced;
    };
    const { ai, engine } = world(answerFromPrompt, { aiForTenant });
    await engine.answerMany(requests(3, "ws_small"));
    await engine.answer(requests(1, "ws_large")[0] as AnswerRequest);
    expect(tenants).toEqual(["ws_small", "ws_large"]);
    expect(paced.calls).toHaveLength(2);
    expect(ai.calls).toHaveLength(0);
  });

  it("passes a model outage past the call's deadline on, never stores it as an answer", async () => {
    const { engine } = world(() => {
      throw new TransientModelError("@cf/meta/llama-3.3-70b-instruct-fp8-fast", "status 429", null);
    });
    await expect(engine.answerMany(requests(3))).rejects.toBeInstanceOf(TransientModelError);
    await expect(engine.answer(requests(1)[0] as AnswerRequest)).rejects.toBeInstanceOf(
      TransientModelError,
    );
  });
});
