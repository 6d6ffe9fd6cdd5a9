import { describe, expect, it } from "vitest";
import type { EngineAnswer } from "../../../src/answer-engine/types";
import { LocalAnswerEngine } from "../../../src/ports/answer-engine/local";
import { expectCitesIndex, request, silent, talk, video } from "./fixtures";

const engine = new LocalAnswerEngine();
const COUNT = {
  answer_type: "comparison" as const,
  description: "How many times is the forklift mentioned?",
};
const sides = (a: EngineAnswer) =>
  a.answer_payload.items.map((i) => [i.item_id, i.label, i.result_state, i.value]);

/** 32 s in four segments: two forklift mentions in the first half, one in the second. */
const yard = (id = "vid_yard") =>
  video({
    id,
    title: "Yard walk",
    duration: 32,
    cues: [
      [2, 4, "The forklift is parked."],
      [10, 12, "Charge the forklift overnight."],
      [26, 28, "Forklift keys stay in the office."],
    ],
  });

describe("LocalAnswerEngine: comparison", () => {
  it("compares the halves of a single video", async () => {
    const videos = [yard()];
    const a = await engine.answer(request(COUNT, videos));
    expect(a.result_state).toBe("found");
    expect(sides(a)).toEqual([
      ["first_half", "First half (00:00–00:16)", "found", 2],
      ["second_half", "Second half (00:16–00:32)", "found", 1],
    ]);
    expect(a.answer_payload).toMatchObject({ value: -1, unit: "occurrences" });
    expect(a.event_count).toBe(3);
    expectCitesIndex(a, videos);
  });

  it("compares two videos, a side with nothing being a known zero", async () => {
    const a = await engine.answer(
      request({ ...COUNT, description: 'How many times is "loading dock" mentioned?' }, [
        yard(),
        talk(),
      ]),
    );
    expect(a.result_state).toBe("found");
    expect(sides(a)).toEqual([
      ["vid_yard", "Yard walk", "not_found", 0],
      ["vid_talk", "Warehouse safety briefing", "found", 1],
    ]);
    expect(a.answer_payload.value).toBe(1);
  });

  it("is not_checked when one side was never extracted, whatever the other says", async () => {
    const a = await engine.answer(request(COUNT, [yard(), silent()]));
    expect(a.result_state).toBe("not_checked");
    expect(a.reason_code).toBe("required_evidence_not_extracted");
    expect(a.answer_payload.value).toBeUndefined();
  });

  it("is not_checked when the budget stopped before the second half", async () => {
    const a = await engine.answer(request(COUNT, [yard()], { mediaSeconds: 16 }));
    expect(a.result_state).toBe("not_checked");
    expect(a.reason_code).toBe("budget_exhausted");
    expect(a.budget_exhausted).toBe(true);
    expect(sides(a).map((s) => s[2])).toEqual(["found", "not_checked"]);
  });
});
