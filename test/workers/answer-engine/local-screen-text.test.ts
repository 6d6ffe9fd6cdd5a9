import { describe, expect, it } from "vitest";
import { answerLocally } from "../../../src/ports/answer-engine/local";
import { citedRefs, expectCitesIndex, request, video } from "./fixtures";

// screen-text.mp4 as the local engine indexes it with the screen reader: no sound, no
// captions, the lines read in one frame per 4 s cell.
const screen = video({
  id: "vid_screen",
  duration: 16,
  bounds: [8],
  ocr: [
    [2, 2, "COLD STORAGE"],
    [2, 2, "Authorised staff only"],
    [6, 6, "Forklift route closed today"],
    [14, 14, "Quarterly safety review"],
  ],
  coverage: { transcript: false, ocr: true },
});
const onScreen = { accepted_types: ["on_screen_text"] };

describe("questions about on-screen text", () => {
  it("answers what the sign says from the text read on screen, citing it", () => {
    const a = answerLocally(
      request(
        { answer_type: "synthesis", description: "What does the sign say?", evidence: onScreen },
        [screen],
      ),
    );
    expect(a.result_state, JSON.stringify(a)).toBe("found");
    expect(a.answer_payload.items.map((i) => i.label)).toContain("COLD STORAGE");
    expect(citedRefs(a).every((ref) => ref.kind === "ocr")).toBe(true);
    expectCitesIndex(a, [screen]);
  });

  it("finds words written on screen, and only where they are written", () => {
    const a = answerLocally(
      request(
        {
          answer_type: "verdict",
          description: 'Does a sign read "cold storage"?',
          evidence: onScreen,
        },
        [screen],
      ),
    );
    expect(a.result_state, JSON.stringify(a)).toBe("found");
    const cited = new Set(citedRefs(a).map((ref) => `${ref.kind} ${ref.start_time} ${ref.text}`));
    expect([...cited]).toEqual(["ocr 2 COLD STORAGE"]);
  });

  it("keeps 'sign' a word to find when the question accepts speech too", () => {
    const a = answerLocally(
      request(
        {
          answer_type: "synthesis",
          description: "What does the sign say?",
          evidence: { accepted_types: ["transcript", "on_screen_text"] },
        },
        [screen],
      ),
    );
    expect(a.result_state, JSON.stringify(a)).not.toBe("found");
  });
});
