import { describe, expect, it } from "vitest";
import { request, talk, video } from "./fixtures";
import { DOCK_ID, jsonMode, modelAnswer, VEST_ID, vestsVerdict, world } from "./recording-ai";

describe("WorkersAiAnswerEngine: what a model's found must show", () => {
  it("never stores a pass for found with the value false", async () => {
    const observation = vestsVerdict({ description: "Do forklift operators wear vests?" });
    const { engine } = world(() =>
      jsonMode(modelAnswer({ evidence_ids: [VEST_ID], value: false })),
    );
    const a = await engine.answer(request(observation, [talk()]));
    expect(a).toMatchObject({
      result_state: "uncertain",
      reason_code: "instruction_not_observation",
    });
    expect(a.answer_payload.value).toBeUndefined();
    expect(a.answer_payload.summary).toContain("value false");
  });

  it("does not keep a found whose cited span does not hold its quoted support", async () => {
    const observation = vestsVerdict({ description: "Do forklift operators wear vests?" });
    const a = await world(() =>
      jsonMode(modelAnswer({ evidence_ids: [DOCK_ID], quotes: ["wear high visibility vests"] })),
    ).engine.answer(request(observation, [talk()]));
    expect(a.result_state).toBe("uncertain");
    expect(a.answer_payload.summary).toContain("no quote of its support stands");
    // Where the service reads nothing of its own, the refused claim changes nothing either.
    const none = await world(() =>
      jsonMode(modelAnswer({ evidence_ids: [VEST_ID], quotes: [] })),
    ).engine.answer(request(vestsVerdict({ description: "Were hard hats worn?" }), [talk()]));
    expect(none).toMatchObject({ result_state: "uncertain", reason_code: "no_literal_match" });
    expect(none.answer_payload.summary).toContain("no quote of its support stands");
  });

  it("applies the instruction guard when the caller (a workflow) asks what happened", async () => {
    const { engine } = world(() => jsonMode(modelAnswer({ evidence_ids: [VEST_ID], value: true })));
    const spec = vestsVerdict({
      description: "Forklift operators must wear high visibility vests",
    });
    const a = await engine.answer({ ...request(spec, [talk()]), mode: "observation" });
    expect(a).toMatchObject({
      result_state: "uncertain",
      reason_code: "instruction_not_observation",
    });
  });

  it("does not store a number it cannot read where the question's words are not all said", async () => {
    const { engine } = world(() =>
      jsonMode(modelAnswer({ evidence_ids: [DOCK_ID], value: 6, unit: "pm" })),
    );
    const spec = {
      answer_key: "closing_hour",
      answer_type: "measurement" as const,
      description: "At what hour does the loading dock close?",
    };
    const a = await engine.answer(request(spec, [talk()]));
    expect(a).toMatchObject({ result_state: "uncertain", reason_code: "paraphrase_unverified" });
    expect(a.answer_payload.value).toBeUndefined();
  });

  it("counts a described frame as seeing only the seconds around it, not its whole segment", async () => {
    // One frame per 8 s segment, as the extent records them: most of the picture unseen.
    const sampled = video({
      id: "vid_frames",
      duration: 24,
      bounds: [8, 16],
      cues: [[0, 23.5, "Nothing about it."]],
      scene: [
        [0, 0, "An empty yard."],
        [8, 8, "An empty yard."],
        [16, 16, "An empty yard."],
      ],
      coverage: { scene: true },
    });
    const spec = vestsVerdict({
      description: "Is a red forklift visible?",
      evidence: { accepted_types: ["scene"] },
    });
    const { engine } = world(() =>
      jsonMode(modelAnswer({ result_state: "not_found", summary: "No forklift." })),
    );
    const a = await engine.answer(request(spec, [sampled]));
    expect(a).toMatchObject({ result_state: "not_checked", reason_code: "partial_coverage" });
    // Frames every 2 s see it all.
    const dense = video({
      id: "vid_dense",
      duration: 8,
      bounds: [],
      cues: [[0, 7.5, "Nothing about it."]],
      scene: [0, 2, 4, 6, 8].map((t) => [t, t, "An empty yard."] as [number, number, string]),
      coverage: { scene: true },
    });
    const b = await engine.answer(request(spec, [dense]));
    expect(b.result_state).toBe("not_found");
  });
});
