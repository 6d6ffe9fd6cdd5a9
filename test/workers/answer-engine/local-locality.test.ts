import { describe, expect, it } from "vitest";
import { answerLocally } from "../../../src/ports/answer-engine/local";
import { expectCitesIndex, request, video } from "./fixtures";

const VESTS = { answer_type: "verdict" as const, description: "Do operators wear vests?" };

function single(cues: [number, number, string][]) {
  return [video({ id: "vid_l", duration: 20, cues })];
}

describe("locality: a strong match is one sentence", () => {
  it("calls the probe's words spread over sentences of a segment borderline", () => {
    const videos = single([[1, 6, "The operators wear helmets. Vests hang on the wall."]]);
    const a = answerLocally(request(VESTS, videos));
    expect(a.result_state, JSON.stringify(a)).toBe("uncertain");
    expect(a.reason_code).toBe("below_threshold");
    expect(a.answer_payload.value).toBeUndefined();
  });

  it("calls words spread over separate cues of a segment borderline", () => {
    const videos = single([
      [1, 3, "The operators arrived."],
      [4, 6, "We wear gloves."],
      [6.5, 7.5, "Vests are blue."],
    ]);
    const a = answerLocally(request(VESTS, videos));
    expect(a.result_state, JSON.stringify(a)).toBe("uncertain");
  });

  it("finds a sentence that runs across consecutive cues, citing both", () => {
    const videos = single([
      [1, 3, "All the operators"],
      [3.5, 6, "wear orange vests today."],
    ]);
    const a = answerLocally(request(VESTS, videos));
    expect(a.result_state, JSON.stringify(a)).toBe("found");
    expect(a.answer_payload.evidence_summary.representative.map((r) => r.start_time)).toEqual([
      1, 3.5,
    ]);
    expectCitesIndex(a, videos);
  });

  it("does not join cues further apart than the cue gap", () => {
    const videos = single([
      [1, 3, "All the operators"],
      [7, 9, "wear orange vests today."],
    ]);
    expect(answerLocally(request(VESTS, videos)).result_state).toBe("uncertain");
  });

  it("is exact only when the probe appears as written, else limited", () => {
    const exact = answerLocally(
      request(VESTS, single([[1, 4, "Here operators wear vests every day."]])),
    );
    expect(exact.result_state).toBe("found");
    expect(exact.answer_payload.evidence_summary.precision).toBe("exact");
    const loose = answerLocally(request(VESTS, single([[1, 4, "Vests are what operators wear."]])));
    expect(loose.result_state).toBe("found");
    expect(loose.answer_payload.evidence_summary.precision).toBe("limited");
  });

  it("counts one occurrence per sentence holding the words", () => {
    const videos = single([
      [1, 4, "The forklift is parked. The forklift is charged."],
      [10, 12, "A forklift passes."],
    ]);
    const a = answerLocally(
      request(
        { answer_type: "measurement", description: "How many times is a forklift mentioned?" },
        videos,
      ),
    );
    expect(a.result_state).toBe("found");
    expect(a.answer_payload.value).toBe(3);
  });
});
