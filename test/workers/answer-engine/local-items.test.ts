import { describe, expect, it } from "vitest";
import { answerLocally } from "../../../src/ports/answer-engine/local";
import { expectCitesIndex, request, video } from "./fixtures";

const yard = video({
  id: "vid_y",
  duration: 20,
  cues: [
    [1, 4, "Ask Dana Okafor about lunch. The forklift rota is on the board."],
    [6, 9, "The forklift drivers meet Sam Lee at noon."],
  ],
});

describe("items are found only in their own sentence", () => {
  it("synthesis: a single weak sentence is uncertain, never a found summary", () => {
    const videos = [video({ id: "vid_w", duration: 10, cues: [[1, 4, "The dock is closed."]] })];
    const a = answerLocally(
      request({ answer_type: "synthesis", description: "Summarise the dock safety rules" }, videos),
    );
    expect(a.result_state, JSON.stringify(a)).toBe("uncertain");
    expect(a.reason_code).toBe("below_threshold");
    expect(a.answer_payload.value).toBeUndefined();
    expect(a.answer_payload.items.map((i) => i.result_state)).toEqual(["uncertain"]);
  });

  it("synthesis: sentences holding the words are found, others quoted as uncertain", () => {
    const a = answerLocally(
      request({ answer_type: "synthesis", description: "What about the forklift rota?" }, [yard]),
    );
    expect(a.result_state).toBe("found");
    expect(a.answer_payload.value).toBe("The forklift rota is on the board.");
    expect(a.answer_payload.items.map((i) => [i.label, i.result_state])).toEqual([
      ["The forklift rota is on the board.", "found"],
      ["The forklift drivers meet Sam Lee at noon.", "uncertain"],
    ]);
    expectCitesIndex(a, [yard]);
  });

  it("enumeration: names come only from the sentence that holds the probe's words", () => {
    const a = answerLocally(
      request({ answer_type: "enumeration", description: "Whom do forklift drivers meet?" }, [
        yard,
      ]),
    );
    expect(a.result_state).toBe("found");
    expect(a.answer_payload.items.map((i) => i.value)).toEqual(["Sam Lee"]);
  });

  it("timeline: a distractor sentence sharing some words is never a found event", () => {
    const a = answerLocally(
      request({ answer_type: "timeline", description: "forklift rota" }, [yard]),
    );
    const found = a.answer_payload.items.filter((i) => i.result_state === "found");
    expect(found.map((i) => i.label)).toEqual(["The forklift rota is on the board."]);
  });
});
