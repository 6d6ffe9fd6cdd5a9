import { describe, expect, it } from "vitest";
import { metricOf } from "../../../src/answer-engine/answer-types/metrics";
import { LocalAnswerEngine } from "../../../src/ports/answer-engine/local";
import { expectCitesIndex, request, silent, talk, video } from "./fixtures";

const engine = new LocalAnswerEngine();

/** Three forklift mentions; the one at 7-10 s crosses the 8 s boundary (in two segments). */
const forklifts = (id = "vid_yard") =>
  video({
    id,
    title: `Yard ${id}`,
    duration: 24,
    cues: [
      [2, 4, "The forklift is parked."],
      [7, 10, "Every forklift needs a daily check."],
      [11, 13, "Lunch is at noon."],
      [15, 17, "Forklift keys stay in the office."],
    ],
  });

const measure = (description: string) => ({
  answer_key: "measure",
  answer_type: "measurement" as const,
  description,
});

describe("LocalAnswerEngine: measurement", () => {
  it("picks the metric from the spec's words", () => {
    expect(metricOf(measure("How many times is the forklift mentioned?"))).toBe("count");
    expect(metricOf(measure("How long is the forklift discussed?"))).toBe("duration");
    expect(metricOf(measure("How many seconds of forklift footage?"))).toBe("duration");
    expect(metricOf(measure("When is the loading dock first mentioned?"))).toBe("first_time");
    expect(metricOf(measure("When is the forklift mentioned for the last time?"))).toBe(
      "last_time",
    );
    expect(metricOf({ answer_type: "measurement", answer_key: "spill_count" })).toBe("count");
    expect(metricOf(measure("Forklift mentions"))).toBe("count");
  });

  it("counts mentions, a cue across a segment boundary once", async () => {
    const videos = [forklifts()];
    const a = await engine.answer(
      request(measure("How many times is the forklift mentioned?"), videos),
    );
    expect(a.result_state, JSON.stringify(a)).toBe("found");
    expect(a.answer_payload.value).toBe(3);
    expect(a.answer_payload.unit).toBe("occurrences");
    expect(a.event_count).toBe(3);
    expect(a.answer_payload.items[0]).toMatchObject({
      item_id: "vid_yard",
      result_state: "found",
      value: 3,
    });
    expectCitesIndex(a, videos);
  });

  it("sums the extent of the matched events: consecutive mentions up to 3 s apart are one", async () => {
    const a = await engine.answer(
      request(measure("How long is the forklift discussed?"), [forklifts()]),
    );
    expect(a.result_state).toBe("found");
    // 2-4 and 7-10 (3 s apart) are one event of 8 s; 15-17 (5 s after it) another of 2 s.
    expect(a.answer_payload).toMatchObject({ value: 10, unit: "seconds" });
  });

  it("gives the first and the last occurrence time", async () => {
    const first = await engine.answer(
      request(measure("When is the loading dock first mentioned?"), [talk()]),
    );
    expect(first.answer_payload).toMatchObject({ value: 9, unit: "seconds" });
    expect(first.result_state).toBe("found");
    const last = await engine.answer(
      request(measure("When is the forklift mentioned for the last time?"), [forklifts()]),
    );
    expect(last.answer_payload.value).toBe(15);
  });

  it("is not_found with value 0 when the transcript holds no mention", async () => {
    const a = await engine.answer(
      request(measure('How many times is "ladder inspection" mentioned?'), [talk()]),
    );
    expect(a.result_state).toBe("not_found");
    expect(a.answer_payload.value).toBe(0);
    expect(a.reason_code).toBe("no_supporting_evidence");
  });

  it("is not_checked, with no value, when the transcript was never extracted", async () => {
    const a = await engine.answer(
      request(measure("How many times is the forklift mentioned?"), [silent()]),
    );
    expect(a.result_state).toBe("not_checked");
    expect(a.answer_payload.value).toBeUndefined();
    expect(a.reason_code).toBe("required_evidence_not_extracted");
  });

  it("is uncertain with a lower bound when the budget ran out before the second video", async () => {
    const videos = [forklifts("vid_a"), forklifts("vid_b")];
    const a = await engine.answer(
      request(measure("How many times is the forklift mentioned?"), videos, { mediaSeconds: 24 }),
    );
    expect(a.result_state).toBe("uncertain");
    expect(a.reason_code).toBe("budget_exhausted");
    expect(a.budget_exhausted).toBe(true);
    expect(a.answer_payload.value).toBe(3);
    expect(a.answer_payload.summary).toMatch(/^At least 3 occurrences\./);
    expect(a.coverage).toEqual({ state: "partial", scope: "1 of 2 videos" });
    expect(a.answer_payload.items.map((i) => [i.result_state, i.value])).toEqual([
      ["found", 3],
      ["not_checked", undefined],
    ]);
    expect(a.usage.media_seconds).toBe(24);
  });

  it("is uncertain with no value when a mention is negated", async () => {
    const v = video({
      id: "vid_shop",
      duration: 16,
      cues: [
        [1, 4, "Wear gloves when handling chemicals."],
        [9, 12, "Do not wear gloves near the lathe."],
      ],
    });
    const a = await engine.answer(request(measure("How many times are gloves mentioned?"), [v]));
    expect(a.result_state).toBe("uncertain");
    expect(a.reason_code).toBe("conflicting_evidence");
    expect(a.answer_payload.value).toBeUndefined();
  });
});
