import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { simulatorRoute } from "../../../simulators/worker";
import { SimulatedAi } from "../../../simulators/workers-ai";
import {
  ANSWER_ERROR_KINDS,
  answerSettingsFrom,
  DEFAULT_ERROR_RATES,
} from "../../../simulators/workers-ai/answer-errors";
import type { RecordedAnswerError } from "../../../simulators/workers-ai/answer-ledger";
import { ANSWER_MODEL } from "../../../src/ports/answer-engine/workers-ai-prompt";
import { request, talk } from "../answer-engine/fixtures";
import { answersOf, ask, onlyKind, promptOver, promptsFor } from "./answer-model-world";
import { productionStorage, send } from "./r2-s3/world";

const adversarial = (seed: number, rates?: string) =>
  answerSettingsFrom({
    SIMULATE_ANSWERS: "adversarial",
    SIMULATE_ANSWERS_SEED: String(seed),
    ...(rates === undefined ? {} : { SIMULATE_ANSWERS_RATES: rates }),
  });

/** Prompts of the safety talk where several kinds of error apply. */
async function talkPrompts() {
  const specs = [
    "Does the loading dock close at six pm?",
    "Do forklift operators wear high visibility vests?",
    "Is a crane used?",
    "Are fire exits kept clear of pallets?",
  ];
  return promptsFor(
    specs.map((description) => request({ answer_type: "verdict", description }, [talk()])),
  );
}

describe("the adversarial answer model", () => {
  it("errs the same way for the same seed, prompt and evidence, and otherwise for other seeds", async () => {
    const prompts = await talkPrompts();
    const outcomes = new Set<string>();
    for (let seed = 1; seed <= 20; seed++) {
      const settings = adversarial(seed);
      const made = prompts.map((input) => ask(input, settings));
      expect(prompts.map((input) => ask(input, settings))).toEqual(made);
      for (const reply of made) answersOf(reply);
      outcomes.add(JSON.stringify(made.map((r) => r.errors.map((e) => [e.kind, e.claimed]))));
    }
    expect(outcomes.size).toBeGreaterThan(10);
  });

  it("makes at most one error an answer, of a listed kind, and none at rates of 0", async () => {
    const prompts = await talkPrompts();
    const kinds = new Set<string>();
    for (let seed = 1; seed <= 20; seed++) {
      for (const input of prompts) {
        const reply = ask(input, adversarial(seed));
        expect(reply.errors.length).toBeLessThanOrEqual(1);
        for (const e of reply.errors) kinds.add(e.kind);
        const honest = ask(input);
        expect(ask(input, adversarial(seed, "0")).output).toEqual(honest.output);
        expect(ask(input, adversarial(seed, "0")).errors).toEqual([]);
        if (reply.errors.length === 0) expect(reply.output).toEqual(honest.output);
      }
    }
    expect(kinds.size).toBeGreaterThanOrEqual(4);
    for (const kind of kinds) expect(ANSWER_ERROR_KINDS).toContain(kind);
  });

  it("reads its settings from the environment and refuses malformed ones", () => {
    expect(answerSettingsFrom({})).toEqual({ mode: "honest", seed: 1, rates: DEFAULT_ERROR_RATES });
    expect(adversarial(7, "0.5").rates.found_false).toBe(DEFAULT_ERROR_RATES.found_false * 0.5);
    expect(adversarial(7, "found_false=1, unrelated_span=0").rates).toEqual({
      ...DEFAULT_ERROR_RATES,
      found_false: 1,
      unrelated_span: 0,
    });
    expect(() => answerSettingsFrom({ SIMULATE_ANSWERS: "devious" })).toThrow(/SIMULATE_ANSWERS/);
    expect(() => adversarial(1, "made_up=1")).toThrow(/no kind/);
    expect(() => adversarial(1, "-1")).toThrow(/at least 0/);
    expect(() => answerSettingsFrom({ SIMULATE_ANSWERS_SEED: "x" })).toThrow(/integer/);
  });

  it("errs per question in a batched prompt, each error naming its question", async () => {
    const specs = [
      { answer_key: "dock", description: "Does the loading dock close at six pm?" },
      {
        answer_key: "briefing",
        description: "Does the video mention a warehouse safety briefing?",
      },
    ];
    const [batch] = await promptsFor(
      specs.map((s) => request({ answer_type: "verdict", ...s }, [talk()])),
      { batched: true },
    );
    if (!batch) throw new Error("no call");
    const reply = ask(batch, onlyKind("found_false"));
    const answers = answersOf(reply);
    expect(answers.map((a) => a.value)).toEqual([false, false]);
    expect(reply.errors.map((e) => [e.answer_key, e.description])).toEqual(
      specs.map((s) => [s.answer_key, s.description]),
    );
  });

  it("records each error once, counting repeats, for GET /__simulator/answer-errors; S3 cannot reach the ledger", async () => {
    const ai = new SimulatedAi({
      bucket: env.MEDIA_BUCKET,
      faults: { delay: async () => undefined, fails: () => false },
      vision: "refuse",
      answers: onlyKind("found_false", 3),
    });
    const dock = await promptOver([[1, 4, "The loading dock closes at six."]], {
      answer_key: "dock",
      answer_type: "verdict",
      description: "Does the loading dock close at six?",
    });
    const gate = await promptOver([[1, 4, "The gate opens at seven."]], {
      answer_key: "gate",
      answer_type: "verdict",
      description: "Does the gate open at seven?",
    });
    for (const input of [dock, dock, gate]) await ai.run(ANSWER_MODEL, input);
    const res = await simulatorRoute("/__simulator/answer-errors", env.MEDIA_BUCKET);
    expect(res?.status).toBe(200);
    if (!res) throw new Error("no route");
    const { errors } = (await res.json()) as { errors: RecordedAnswerError[] };
    expect(errors.map((e) => [e.answer_key, e.made])).toEqual([
      ["dock", 2],
      ["gate", 1],
    ]);
    const [first] = errors;
    expect(first).toMatchObject({
      kind: "found_false",
      seed: 3,
      answer_type: "verdict",
      description: "Does the loading dock close at six?",
      honest: { result_state: "found", value: true },
      claimed: {
        result_state: "found",
        value: false,
        unit: null,
        quotes: ["The loading dock closes at six."],
      },
    });
    expect(first?.claimed.evidence_ids).toHaveLength(1);
    expect(Date.parse(first?.first_made_at ?? "")).toBeLessThanOrEqual(
      Date.parse(first?.last_made_at ?? ""),
    );
    const key = `__answer-simulator/errors/${first?.fingerprint}`;
    expect(await env.MEDIA_BUCKET.head(key)).not.toBeNull();
    const url = await productionStorage().presignGet(key, new Date(Date.now() + 60_000), {
      origin: "unused",
    });
    const denied = await send(new Request(url));
    expect(denied.status).toBe(403);
    expect(await denied.text()).toContain("<Code>AccessDenied</Code>");
  });
});
