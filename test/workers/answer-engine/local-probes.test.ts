import { describe, expect, it } from "vitest";
import { buildProbes, instructionSentences } from "../../../src/answer-engine/question-probes";
import { answerLocally } from "../../../src/ports/answer-engine/local";
import { request, video } from "./fixtures";

const PARAGRAPH =
  "Answer from speech and pictures. dock_time: When does the loading dock close? " +
  "spill_report: Is reporting a spill to the supervisor mentioned?";

describe("probes: every source specific to the spec", () => {
  it("takes each instruction sentence naming the key, not the whole paragraph", () => {
    expect(instructionSentences(PARAGRAPH, "dock_time")).toEqual([
      ": When does the loading dock close?",
    ]);
    expect(buildProbes({ answer_key: "dock_time", answer_type: "measurement" }, PARAGRAPH)).toEqual(
      [expect.objectContaining({ text: "loading dock close" })],
    );
  });

  it("finds a caption that says a paragraph instruction word for word", () => {
    const videos = [
      video({ id: "vid_p", duration: 20, cues: [[2, 5, "The loading dock close is at six."]] }),
    ];
    const a = answerLocally(
      request({ answer_key: "spill_report", answer_type: "verdict" }, videos, {
        instructions: `${PARAGRAPH} Also: is the loading dock close mentioned in dock_time?`,
      }),
    );
    // spill_report's probes are its own sentence (never its key's words); the dock sentence names
    // another key and is not used.
    expect(a.result_state, JSON.stringify(a)).not.toBe("found");
    const b = answerLocally(
      request({ answer_key: "dock_time", answer_type: "verdict" }, videos, {
        instructions: PARAGRAPH,
      }),
    );
    expect(b.result_state, JSON.stringify(b)).toBe("found");
  });

  it("uses the description, each field's description and label, never the key's words", () => {
    const probes = buildProbes(
      {
        answer_key: "hard_hats",
        answer_type: "verdict",
        description: "Are helmets on?",
        fields: [{ key: "f", label: "Hi-vis jacket", description: "Reflective strips" }],
      },
      "",
    ).map((p) => p.text);
    expect(probes).toEqual(["helmets", "reflective strips", "hi vis jacket"]);
  });
});
