import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ENGLISH } from "../../../src/answer-engine/english";
import { questionMode as modeIn } from "../../../src/answer-engine/language-reading";
import { polarityOf } from "../../../src/answer-engine/negation";
import { isDirective } from "../../../src/answer-engine/statement-mode";

const questionMode = (sources: string[], type: "verdict" | "retrieval") =>
  modeIn(sources, type, ENGLISH);

import type { AnswerSpec } from "../../../src/domain/answers";
import { stems } from "../../../src/lib/text/search-scoring";
import { answerLocally } from "../../../src/ports/answer-engine/local";
import { request, video } from "./fixtures";

const HATS = "Do the workers wear hard hats?";
const transcript = { accepted_types: ["transcript"] };

function answerOver(
  sentence: string,
  description = HATS,
  answer_type: AnswerSpec["answer_type"] = "verdict",
) {
  const v = video({ id: "vid_s", duration: 10, cues: [[0, 9.8, sentence]] });
  return answerLocally(request({ answer_type, description, evidence: transcript }, [v]));
}

describe("instruction versus observation", () => {
  it.each([
    "Workers must wear hard hats.",
    "All workers should wear hard hats on site.",
    "Workers, please wear your hard hats.",
    "Workers are required to wear hard hats.",
    "Workers need to wear hard hats in zone B.",
    "Always wear hard hats, workers.",
    "The workers will wear hard hats tomorrow.",
    "Make sure the workers wear hard hats.",
  ])("a rule or intent is at most uncertain for what happened: %s", (sentence) => {
    const a = answerOver(sentence);
    expect(a.result_state, JSON.stringify(a)).toBe("uncertain");
    expect(a.reason_code).toBe("instruction_not_observation");
    expect(a.answer_payload.value).toBeUndefined();
    expect(a.answer_payload.evidence_summary.representative[0]?.text).toBe(sentence);
  });

  it.each([
    "The workers wear hard hats all day.",
    "The workers wore hard hats during the lift.",
    "Every worker was wearing a hard hat.",
  ])("an observation stays found: %s", (sentence) => {
    const a = answerOver(sentence);
    expect(a.result_state, JSON.stringify(a)).toBe("found");
    expect(a.answer_payload.value).toBe(true);
  });

  it("a rule question is found from the rule and not from an observation", () => {
    const rule = "Are workers required to wear hard hats?";
    expect(answerOver("Workers must wear hard hats.", rule).result_state).toBe("found");
    const a = answerOver("The workers wore hard hats.", rule);
    expect(a).toMatchObject({
      result_state: "uncertain",
      reason_code: "observation_not_instruction",
    });
  });

  it("a question about what is said is found from either", () => {
    const said = "Does the speaker mention that workers wear hard hats?";
    expect(answerOver("Workers must wear hard hats.", said).result_state).toBe("found");
    expect(answerOver("The workers wore hard hats.", said).result_state).toBe("found");
  });

  it("reads the stated number of an observation, and an instruction alone gives no count", () => {
    const spec = "How many workers wear hard hats?";
    const v = video({
      id: "vid_c",
      duration: 16,
      cues: [
        [0, 3, "Workers must wear hard hats."],
        [8, 15.5, "Two workers wore hard hats at the gate."],
      ],
    });
    const a = answerLocally(
      request({ answer_type: "measurement", description: spec, evidence: transcript }, [v]),
    );
    expect(a).toMatchObject({
      result_state: "found",
      answer_payload: { value: 2, unit: "workers" },
    });
    const only = answerOver("Workers must wear hard hats.", spec, "measurement");
    expect(only.result_state).toBe("uncertain");
    expect(only.answer_payload.value).toBeUndefined();
  });

  it("still retrieves an instruction as a passage about the words", () => {
    const a = answerOver("Workers must wear hard hats.", "workers wear hard hats", "retrieval");
    expect(a.result_state).toBe("found");
  });

  it("tells the cues apart (the documented list)", () => {
    for (const s of [
      "You should wear gloves.",
      "Please wear ear protection.",
      "Visitors are required to sign in.",
      "Staff have to sign in.",
      "We are going to test the alarm.",
      "Report every spill to the supervisor.",
      "Never remove the guard.",
      "Visitors are to sign in at the gate.",
    ])
      expect(isDirective(s), s).toBe(true);
    for (const s of [
      "The workers wore hard hats.",
      "Everyone is wearing gloves.",
      "Visitors signed in at the gate.",
      "Forklift drivers had vests on.",
    ])
      expect(isDirective(s), s).toBe(false);
    expect(questionMode(["Is the spill mentioned?"], "verdict")).toBe("mention");
    expect(questionMode(["Must visitors sign in?"], "verdict")).toBe("rule");
    expect(questionMode(["Did visitors sign in?"], "verdict")).toBe("observation");
    expect(questionMode(["Did visitors sign in?"], "retrieval")).toBe("mention");
  });

  it("property: adding a modal cue to an observation never leaves it found", () => {
    const cue = fc.constantFrom("must", "should", "will", "need to", "are required to", "ought to");
    const subject = fc.constantFrom("The workers", "Workers on site", "All workers");
    fc.assert(
      fc.property(subject, cue, (s, c) => {
        const a = answerOver(`${s} ${c} wear hard hats.`);
        expect(a.result_state).not.toBe("found");
        expect(a.answer_payload.value).toBeUndefined();
      }),
    );
  });
});

describe("negation and double negatives", () => {
  const terms = new Set(stems("workers wear helmet vest"));

  it.each([
    ["Nobody wore a vest.", "negative"],
    ["The vest was not worn.", "negative"],
    ["No one was without a helmet.", "unclear"],
    ["Workers never work without a helmet.", "unclear"],
    ["Helmets were worn by nobody.", "unclear"],
    ["The workers wore helmets.", "positive"],
  ] as const)("reads the polarity of %s as %s", (sentence, polarity) => {
    expect(polarityOf(sentence, terms)).toBe(polarity);
  });

  it.each([
    [
      "Did the workers wear vests?",
      "Nobody wore a vest, the workers said.",
      "conflicting_evidence",
    ],
    ["Was the vest worn?", "The vest was not worn.", "conflicting_evidence"],
    ["Were helmets worn?", "Helmets were worn by nobody at all.", "unclear_polarity"],
    ["Was anyone without a helmet?", "No one was without a helmet.", "unclear_polarity"],
    ["Did workers wear a helmet?", "No worker was without a helmet.", "unclear_polarity"],
  ])("%s over %j is uncertain, never found or true", (question, sentence, reason) => {
    const a = answerOver(sentence, question);
    expect(a.result_state, JSON.stringify(a)).toBe("uncertain");
    expect(a.reason_code).toBe(reason);
    expect(a.answer_payload.value).toBeUndefined();
  });

  it("a borderline negated sentence elsewhere neither blocks support nor allows an absence", () => {
    const v = video({
      id: "vid_n",
      duration: 16,
      cues: [
        [0, 3, "Nobody wore safety glasses in the paint shop."],
        [8, 15.5, "Everyone was wearing gloves at the loading dock."],
      ],
    });
    const spec = {
      answer_key: "gloves_worn",
      answer_type: "verdict" as const,
      description: "Were gloves worn at the loading dock?",
      evidence: transcript,
    };
    expect(answerLocally(request(spec, [v])).result_state).toBe("found");
    // Alone, "Nobody wore ..." shares half of "gloves worn": no support, and no absence either.
    const alone = answerOver("Nobody wore safety glasses in the paint shop.", "Were gloves worn?");
    expect(alone).toMatchObject({ result_state: "uncertain", reason_code: "conflicting_evidence" });
  });

  it("a double negative is not read as a plain negative: never found for the negative question", () => {
    // "Does anyone work without a helmet?" looks for a negated statement; "no one was without"
    // says the opposite, and counting cues cannot tell which: uncertain, not found.
    const a = answerOver("No one works without a helmet.", "Does anyone work without a helmet?");
    expect(a.result_state).toBe("uncertain");
    expect(a.answer_payload.value).toBeUndefined();
    const plain = answerOver(
      "Two of them work without a helmet.",
      "Does anyone work without a helmet?",
    );
    expect(plain.result_state).toBe("found");
  });
});
