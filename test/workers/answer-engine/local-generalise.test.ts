import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sentenceMode } from "../../../src/answer-engine/statement-mode";
import type { EngineVideo } from "../../../src/answer-engine/types";
import type { AnswerSpec } from "../../../src/domain/answers";
import { answerLocally } from "../../../src/ports/answer-engine/local";
import { citedRefs, request, video } from "./fixtures";

const transcript = { accepted_types: ["transcript"] };

function over(
  captions: string[],
  description: string,
  answer_type: AnswerSpec["answer_type"] = "verdict",
  extra: Partial<AnswerSpec> = {},
) {
  const v = video({
    id: "vid_g",
    duration: 4 * captions.length + 1,
    cues: captions.map((text, i) => [4 * i + 0.5, 4 * i + 3.5, text]),
  });
  return answerLocally(request({ answer_type, description, evidence: transcript, ...extra }, [v]));
}

/** The same video with its captions tagged as another language's track. */
function inLanguage(v: EngineVideo, tag: string): EngineVideo {
  return {
    ...v,
    segments: v.segments.map((s) => ({
      ...s,
      evidence: s.evidence.map((e) => ({ ...e, source: `text-track:0:${tag}` })),
    })),
  };
}

describe("a sentence's mode is read from its form, failing safe", () => {
  // Made-up verbs: no list can hold them, so only the form can tell. A q before another
  // consonant keeps them out of English (a freer shape once made "both" and "with"), and none
  // ends in s, which reads as a plural subject: "Bats nest here".
  const verb = fc.stringMatching(/^[b-df-hj-np-tv-z][aeiou]q[b-df-hj-np-rtv-z][aeiou]?$/);
  const cap = (w: string) => `${w.charAt(0).toUpperCase()}${w.slice(1)}`;

  it("reads a bare verb before its object as an instruction, whatever the verb", () => {
    fc.assert(
      fc.property(verb, fc.constantFrom("the", "a", "every", "up", "your"), (w, next) => {
        expect(sentenceMode(`${cap(w)} ${next} crates by the door.`)).toBe("directive");
        expect(sentenceMode(`Please ${w} the crates.`)).toBe("directive");
      }),
    );
  });

  it("never reads an unknown opening as something that happened", () => {
    fc.assert(
      fc.property(verb, verb, (a, b) => {
        expect(sentenceMode(`${cap(a)} ${b} crates carefully.`)).not.toBe("report");
      }),
    );
  });

  it("reads a subject and its verb as a report", () => {
    for (const s of [
      "The workers wore hard hats.",
      "Maria mopped the floor behind the counter.",
      "Oil is leaking from the tank.",
      "Four crates were unloaded.",
      "Workers wore vests all day.",
      "Dana Okafor signed the permit.",
    ])
      expect(sentenceMode(s), s).toBe("report");
  });

  it("answers an everyday imperative as no evidence that it happened", () => {
    const a = over(["Scrub the pans and stack them by the sink."], "Were the pans scrubbed?");
    expect(a).toMatchObject({
      result_state: "uncertain",
      reason_code: "instruction_not_observation",
    });
    expect(over(["Scrub the pans."], "Does the video say to scrub the pans?").result_state).toBe(
      "found",
    );
  });

  it("answers a reported request as what was said, not what was done", () => {
    const said = ["The manager reminded everyone to switch off the grill."];
    expect(over(said, "Was the grill switched off?").result_state).not.toBe("found");
    expect(
      over(said, "Did the manager remind everyone to switch off the grill?").result_state,
    ).toBe("found");
    const asked = over(["Guests, please sit down."], "Does the video ask guests to sit down?");
    expect(asked.result_state, JSON.stringify(asked)).toBe("found");
  });
});

describe("words are looked for, never names or other languages", () => {
  it("never looks for the answer key's words", () => {
    const a = over(["The forklift is parked."], "Is the ladder mentioned?", "verdict", {
      answer_key: "forklift",
    });
    expect(a.result_state).not.toBe("found");
    expect(citedRefs(a)).toEqual([]);
  });

  it("answers not_checked (language_unsupported) in a run locale it cannot read", () => {
    const v = inLanguage(
      video({
        id: "vid_de",
        duration: 6,
        cues: [[1, 5, "Niemand trägt heute eine Schutzbrille."]],
      }),
      "ger",
    );
    const spec = {
      answer_type: "verdict" as const,
      description: "Trägt jemand eine Schutzbrille?",
    };
    const a = answerLocally({ ...request({ ...spec, evidence: transcript }, [v]), locale: "de" });
    expect(a).toMatchObject({ result_state: "not_checked", reason_code: "language_unsupported" });
  });

  it("never supports an answer from captions in a language it cannot read", () => {
    const v = inLanguage(
      video({ id: "vid_de", duration: 6, cues: [[1, 5, "Das Team ist heute nicht hier."]] }),
      "ger",
    );
    const a = answerLocally(
      request({ answer_type: "verdict", description: "Is the team here?", evidence: transcript }, [
        v,
      ]),
    );
    expect(a).toMatchObject({ result_state: "not_checked", reason_code: "language_mismatch" });
  });
});

describe("stated numbers are read, or nothing is claimed", () => {
  it.each([
    ["Six crates were unloaded from the van.", "How many crates were unloaded?", 6, "crates"],
    ["The oven stayed on for twenty minutes.", "How long did the oven stay on?", 1200, "seconds"],
    ["The kiln reached 900 degrees.", "What temperature did the kiln reach?", 900, "degrees"],
    ["The bell sounded twice during the break.", "How many times did the bell sound?", 2, "times"],
    ["A crate fell. A second crate fell.", "How many crates fell?", 2, "crates"],
  ])("%s → %s", (caption, question, value, unit) => {
    const a = over([caption], question, "measurement");
    expect(a.result_state, JSON.stringify(a)).toBe("found");
    expect(a.answer_payload).toMatchObject({ value, unit });
  });

  it("is uncertain when the thing is named without a number, or with two different ones", () => {
    const plain = over(
      ["Crates were unloaded from the van."],
      "How many crates were unloaded?",
      "measurement",
    );
    expect(plain).toMatchObject({ result_state: "uncertain", reason_code: "quantity_not_stated" });
    expect(plain.answer_payload.value).toBeUndefined();
    const two = over(
      [
        "The oven stayed on for twenty minutes.",
        "The oven stayed on for an hour or so, ten minutes.",
      ],
      "How long did the oven stay on?",
      "measurement",
    );
    expect(two.result_state).toBe("uncertain");
    expect(two.answer_payload.value).toBeUndefined();
  });
});

describe("a missing word is no proof of absence", () => {
  it("never says not_found for words a synonym may stand for", () => {
    const a = over(["An automobile was parked by the gate."], "Is a car mentioned?");
    expect(a).toMatchObject({ result_state: "uncertain", reason_code: "no_literal_match" });
    expect(a.answer_payload.value).toBeUndefined();
  });

  it("never says not_found for a general timeline or summary", () => {
    const captions = ["The crew arrived at dawn.", "The van left at noon."];
    for (const type of ["timeline", "synthesis", "measurement"] as const) {
      const a = over(captions, "Give an overview of the incidents.", type);
      expect(a.result_state, `${type}: ${JSON.stringify(a)}`).not.toBe("not_found");
      expect(a.answer_payload.value).not.toBe(0);
    }
  });
});
