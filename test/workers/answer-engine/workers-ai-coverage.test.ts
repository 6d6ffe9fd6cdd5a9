import { describe, expect, it } from "vitest";
import { buildContext } from "../../../src/answer-engine/context";
import {
  modelInput,
  promptTokens,
  rankSegments,
} from "../../../src/ports/answer-engine/workers-ai-prompt";
import { request, silent, talk } from "./fixtures";
import { jsonMode, modelAnswer, VEST_ID, vestsVerdict, world } from "./recording-ai";

describe("WorkersAiAnswerEngine: budget and coverage", () => {
  it("does not call when the token budget cannot cover the prompt; the service still reads", async () => {
    const { ai, engine } = world(() => jsonMode(modelAnswer({ evidence_ids: [VEST_ID] })));
    const found = await engine.answer(request(vestsVerdict(), [talk()], { tokens: 500 }));
    expect(ai.calls).toHaveLength(0);
    expect(found).toMatchObject({ result_state: "found", budget_exhausted: true });
    expect(found.usage.input_tokens).toBe(0);
    const absent = await engine.answer(
      request(vestsVerdict({ description: "hard hats" }), [talk()], { tokens: 500 }),
    );
    expect(absent).toMatchObject({ result_state: "uncertain", reason_code: "no_literal_match" });
  });
  it("sends what the token budget covers, and turns an absence over the rest into not_checked", async () => {
    const r = request(vestsVerdict({ description: "hard hats" }), [talk()]);
    const ctx = buildContext(r);
    const one = promptTokens(modelInput(ctx, rankSegments(ctx).slice(0, 1), 1024));
    r.budget.tokens = one + 1024 + 1;
    const { ai, engine } = world(() =>
      jsonMode(modelAnswer({ result_state: "not_found", summary: "No hard hats." })),
    );
    const a = await engine.answer(r);
    expect(ai.prompt().segments).toHaveLength(1);
    expect(a.result_state).toBe("not_checked");
    expect(a.reason_code).toBe("budget_exhausted");
    expect(a.budget_exhausted).toBe(true);
  });
  it("keeps not_found only when everything was extracted, read and sent", async () => {
    const absent = () =>
      jsonMode(modelAnswer({ result_state: "not_found", summary: "No hard hats." }));
    const full = await world(absent).engine.answer(
      request(vestsVerdict({ description: "hard hats" }), [talk()]),
    );
    expect(full.result_state).toBe("not_found");
    expect(full.answer_payload.value).toBe(false);

    const mixed = await world(absent).engine.answer(
      request(vestsVerdict({ description: "hard hats" }), [talk(), silent()]),
    );
    expect(mixed.result_state).toBe("not_checked");
    expect(mixed.reason_code).toBe("required_evidence_not_extracted");

    const capped = await world(absent, { maxSegments: 2 }).engine.answer(
      request(vestsVerdict({ description: "hard hats" }), [talk()]),
    );
    expect(capped.result_state).toBe("not_checked");
    expect(capped.reason_code).toBe("context_limit");
    expect(capped.budget_exhausted).toBe(false);
  });
  it("does not call when the accepted evidence was never extracted", async () => {
    const { ai, engine } = world(() => jsonMode(modelAnswer({ evidence_ids: [VEST_ID] })));
    const a = await engine.answer(
      request(vestsVerdict({ evidence: { accepted_types: ["ocr"] } }), [talk()]),
    );
    expect(ai.calls).toHaveLength(0);
    expect(a.result_state).toBe("not_checked");
    expect(a.reason_code).toBe("required_evidence_not_extracted");
  });
});
