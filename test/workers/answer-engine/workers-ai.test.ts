import { describe, expect, it } from "vitest";
import { evidenceId } from "../../../src/answer-engine/evidence-ids";
import type { WorkersAiAnswerDependencies } from "../../../src/ports/answer-engine/workers-ai";
import { ANSWER_MODEL, promptTokens } from "../../../src/ports/answer-engine/workers-ai-prompt";
import { expectCitesIndex, request, talk } from "./fixtures";
import { DOCK_ID, jsonMode, modelAnswer, VEST_ID, vestsVerdict, world } from "./recording-ai";

describe("WorkersAiAnswerEngine: request and validation", () => {
  it("accepts the real binding type", () => {
    const deps = (ai: Ai): WorkersAiAnswerDependencies => ({ ai });
    expect(deps).toBeTypeOf("function");
  });
  it("asks the JSON-mode model with the instructions, the spec and the segments with their evidence ids", async () => {
    const { ai, engine } = world(() =>
      jsonMode(modelAnswer({ evidence_ids: [VEST_ID], value: "yes" })),
    );
    const videos = [talk()];
    const a = await engine.answer(request(vestsVerdict(), videos, { instructions: "Be strict." }));

    expect(ai.calls).toHaveLength(1);
    const call = ai.calls[0];
    expect(call?.model).toBe(ANSWER_MODEL);
    expect(call?.inputs.response_format?.type).toBe("json_schema");
    expect(call?.inputs.response_format?.json_schema).toMatchObject({
      required: ["result_state", "summary", "evidence_ids", "quotes", "items"],
    });
    expect(call?.inputs).toMatchObject({ temperature: 0, max_tokens: 1024 });
    expect(call?.inputs.messages.map((m) => m.role)).toEqual(["system", "user"]);
    const sent = ai.prompt();
    expect(sent.instructions).toBe("Be strict.");
    expect(sent.answer_spec).toMatchObject({
      answer_key: "vests_worn",
      answer_type: "verdict",
      accepted_evidence: ["transcript"],
      mode: "rule",
    });
    expect(sent.segments.map((s) => s.segment_id)).toEqual([
      "seg_vid_talk_0",
      "seg_vid_talk_1",
      "seg_vid_talk_2",
    ]);
    expect(sent.segments[0]?.evidence.map((e) => [e.evidence_id, e.language])).toEqual([
      [evidenceId("seg_vid_talk_0", "transcript", 1, 4), "en"],
      [VEST_ID, "en"],
    ]);

    expect(a.result_state).toBe("found");
    expect(a.answer_payload.value).toBe(true);
    expect(a.answer_payload.evidence_summary.representative.map((r) => r.evidence_id)).toEqual([
      VEST_ID,
    ]);
    expect(a.provenance).toMatchObject({
      engine: "workers-ai-answers@4",
      method: "lexical",
      model: ANSWER_MODEL,
    });
    expect(a.usage).toEqual({
      input_tokens: 900,
      output_tokens: 60,
      cached_input_tokens: 0,
      media_seconds: 24,
    });
    expect(a.budget_exhausted).toBe(false);
    expectCitesIndex(a, videos);
  });
  it("downgrades a found to a question about what happened when it cites only a rule", async () => {
    const { engine } = world(() => jsonMode(modelAnswer({ evidence_ids: [VEST_ID], value: true })));
    const observation = "Do forklift operators wear high visibility vests?";
    const a = await engine.answer(request(vestsVerdict({ description: observation }), [talk()]));
    expect(a).toMatchObject({
      result_state: "uncertain",
      reason_code: "instruction_not_observation",
    });
    expect(a.answer_payload.value).toBeUndefined();
    const rule = await engine.answer(request(vestsVerdict(), [talk()]));
    expect(rule).toMatchObject({ result_state: "found", answer_payload: { value: true } });
  });
  it("does not keep a found that cites only ids it was not sent or that do not exist", async () => {
    // An observation: talk.mp4 only states the rule, so the service's own reading finds nothing.
    const observation = vestsVerdict({ description: "Do forklift operators wear vests?" });
    const invented = await world(() =>
      jsonMode(
        modelAnswer({ evidence_ids: ["evidence_0000000000000000000000invent"], value: true }),
      ),
    ).engine.answer(request(observation, [talk()]));
    // The service's own reading (a rule, not an observation) is the reason; the summary says
    // why the model's found was not kept.
    expect(invented).toMatchObject({
      result_state: "uncertain",
      reason_code: "instruction_not_observation",
    });
    expect(invented.answer_payload.value).toBeUndefined();
    expect(invented.answer_payload.summary).toContain("not sent to it");
    // Only the best-ranked segment (the vests) fits; the dock cue exists but was not sent.
    const { ai, engine } = world(() => jsonMode(modelAnswer({ evidence_ids: [DOCK_ID] })), {
      maxSegments: 1,
    });
    const unsent = await engine.answer(request(observation, [talk()]));
    expect(ai.prompt().segments.map((s) => s.segment_id)).toEqual(["seg_vid_talk_0"]);
    expect(unsent.result_state).toBe("uncertain");
    expect(unsent.answer_payload.summary).toContain("not sent to it");
  });
  it("stores the service's reading, never the model's ids, items or labels", async () => {
    const { engine } = world(() =>
      jsonMode(
        modelAnswer({
          evidence_ids: ["evidence_madeup", VEST_ID, DOCK_ID],
          summary: "Vests are always worn and the dock never closes.",
          items: [
            { label: "Dock never closes", result_state: "found", evidence_ids: [DOCK_ID] },
            { label: "Dock opens at six", result_state: "found", evidence_ids: ["evidence_nope"] },
          ],
        }),
      ),
    );
    const videos = [talk()];
    const a = await engine.answer(request(vestsVerdict(), videos));
    expect(a.result_state).toBe("found");
    expect(a.answer_payload.evidence_summary.representative.map((r) => r.evidence_id)).toEqual([
      VEST_ID,
    ]);
    expect(a.answer_payload.summary).not.toContain("never closes");
    expect(a.answer_payload.items.map((i) => [i.item_id, i.label, i.result_state])).toEqual([
      ["vid_talk", "Warehouse safety briefing", "found"],
    ]);
    expectCitesIndex(a, videos);
  });
  it("leaves the service's own reading when the model's answer is malformed or the call fails", async () => {
    for (const respond of [
      () => ({ response: "Sure! Here is the answer: {result_state: found" }),
      () => jsonMode({ result_state: "yes", summary: "x", evidence_ids: [], items: [] }),
      () => {
        throw new Error("5025: JSON Mode couldn't be met");
      },
    ]) {
      const { engine } = world(respond);
      const rule = await engine.answer(request(vestsVerdict(), [talk()]));
      expect(rule).toMatchObject({ result_state: "found", answer_payload: { value: true } });
      expect(rule.answer_payload.summary).toContain("the service's own reading");
      expect(rule.usage.input_tokens).toBeGreaterThan(0);
      const absent = await engine.answer(
        request(vestsVerdict({ description: "hard hats" }), [talk()]),
      );
      expect(absent).toMatchObject({ result_state: "uncertain", reason_code: "no_literal_match" });
    }
  });
  it("reads a JSON string response, code fences tolerated, and estimates tokens without usage", async () => {
    const text = `\`\`\`json\n${JSON.stringify(modelAnswer({ evidence_ids: [VEST_ID] }))}\n\`\`\``;
    const { ai, engine } = world(() => ({ response: text }));
    const a = await engine.answer(request(vestsVerdict(), [talk()]));
    expect(a.result_state).toBe("found");
    expect(a.usage.input_tokens).toBe(promptTokens(ai.calls[0]?.inputs ?? { messages: [] }));
    expect(a.usage.output_tokens).toBeGreaterThan(0);
  });
  it("keeps the service's count; the model's own uncertain does not undo it", async () => {
    const spec = {
      answer_type: "measurement" as const,
      description: "How many times is a spill mentioned?",
    };
    const spill = evidenceId("seg_vid_talk_1", "transcript", 13, 16.5);
    const found = await world(() =>
      jsonMode(modelAnswer({ evidence_ids: [spill], value: 1, unit: "occurrences" })),
    ).engine.answer(request(spec, [talk()]));
    expect(found.answer_payload).toMatchObject({ value: 1, unit: "occurrences" });
    const unsure = await world(() =>
      jsonMode(modelAnswer({ result_state: "uncertain", evidence_ids: [spill], value: 4 })),
    ).engine.answer(request(spec, [talk()]));
    expect(unsure).toMatchObject({ result_state: "found", answer_payload: { value: 1 } });
  });
  it("downgrades a found whose number its citations do not back", async () => {
    const spec = {
      answer_type: "measurement" as const,
      description: "How many times is a spill mentioned?",
    };
    const spill = evidenceId("seg_vid_talk_1", "transcript", 13, 16.5);
    const a = await world(() =>
      jsonMode(modelAnswer({ evidence_ids: [spill], value: 4, unit: "occurrences" })),
    ).engine.answer(request(spec, [talk()]));
    expect(a.result_state).toBe("uncertain");
    expect(a.reason_code).toBe("unbacked_value");
    expect(a.answer_payload.value).toBeUndefined();
  });
});
