import { describe, expect, it } from "vitest";
import type { AnswerErrorKind } from "../../../simulators/workers-ai/answer-errors";
import {
  isInstruction,
  isNegated,
  sharedStems,
  standsIn,
} from "../../../simulators/workers-ai/statements";
import { stems } from "../../../src/lib/text/search-scoring";
import { isStopword, tokenize } from "../../../src/lib/text/text-features";
import type { Cue } from "../answer-engine/fixtures";
import { request, talk } from "../answer-engine/fixtures";
import { ask, onlyAnswer, onlyKind, promptOver, promptsFor, spansOf } from "./answer-model-world";

type Spec = Parameters<typeof promptOver>[1];
type Options = Parameters<typeof promptOver>[2];

/** The honest and the erring answer to one prompt, the error checked against what was claimed. */
async function erring(kind: AnswerErrorKind, cues: Cue[], spec: Spec, options?: Options) {
  const input = await promptOver(cues, spec, options);
  const honest = onlyAnswer(ask(input));
  const reply = ask(input, onlyKind(kind));
  const answer = onlyAnswer(reply);
  expect(reply.errors, JSON.stringify(answer)).toHaveLength(1);
  const [error] = reply.errors;
  expect(error).toMatchObject({
    kind,
    seed: 1,
    answer_key: spec.answer_key ?? "check",
    description: spec.description ?? "",
    honest: { result_state: honest.result_state, value: honest.value ?? null },
    claimed: {
      result_state: answer.result_state,
      value: answer.value ?? null,
      unit: answer.unit ?? null,
      evidence_ids: answer.evidence_ids,
      quotes: answer.quotes,
    },
  });
  const spans = spansOf(input);
  const cited = answer.evidence_ids.map((id) => spans.get(id)?.text ?? "");
  for (const id of answer.evidence_ids) expect(spans.has(id)).toBe(true);
  return { honest, answer, cited, input };
}

const verdict = (description: string): Spec => ({ answer_type: "verdict", description });

describe("the adversarial answer model: each kind of error where it applies", () => {
  it("negated_support: a sentence negating what was asked, cited and quoted as support (English and German)", async () => {
    const en = await erring(
      "negated_support",
      [
        [1, 4, "Nobody wore vests today."],
        [5, 8, "The dock closes at six."],
      ],
      verdict("Did the staff wear vests?"),
    );
    expect(en.honest.result_state).not.toBe("found");
    expect(en.answer).toMatchObject({ result_state: "found", value: true });
    expect(en.answer.quotes).toEqual(["Nobody wore vests today."]);
    expect(en.cited).toEqual(["Nobody wore vests today."]);
    const de = await erring(
      "negated_support",
      [
        [1, 4, "Der Fahrer hat drei Paletten gestapelt."],
        [5, 8, "Niemand trägt heute eine Schutzbrille."],
      ],
      verdict("Trägt jemand eine Schutzbrille?"),
      { language: "ger", locale: "de" },
    );
    expect(de.answer).toMatchObject({ result_state: "found", value: true });
    expect(de.answer.quotes).toEqual(["Niemand trägt heute eine Schutzbrille."]);
  });

  it("instruction_as_event: a rule or request reported as what happened (English and German)", async () => {
    const en = await erring(
      "instruction_as_event",
      [
        [1, 4, "Please wear gloves in the store."],
        [5, 8, "The team left early."],
      ],
      verdict("Did the workers wear gloves in the store?"),
    );
    expect(en.honest.result_state).not.toBe("found");
    expect(en.answer).toMatchObject({ result_state: "found", value: true });
    expect(en.answer.quotes).toEqual(["Please wear gloves in the store."]);
    const de = await erring(
      "instruction_as_event",
      [
        [1, 4, "Tragen Sie immer Handschuhe im Lager."],
        [5, 8, "Das Team beendet die Schicht um sechs Uhr."],
      ],
      verdict("Tragen die Arbeiter Handschuhe im Lager?"),
      { language: "ger", locale: "de" },
    );
    expect(de.answer.quotes).toEqual(["Tragen Sie immer Handschuhe im Lager."]);
    expect(isInstruction(de.answer.quotes[0] ?? "", "de")).toBe(true);
  });

  it("unrelated_span: a real span that says nothing of the question, quoted", async () => {
    const question = "Does the loading dock close at six?";
    const { honest, answer, cited } = await erring(
      "unrelated_span",
      [
        [1, 4, "The loading dock closes at six."],
        [5, 8, "Lunch is served in the canteen."],
      ],
      verdict(question),
    );
    expect(honest.result_state).toBe("found");
    expect(answer.result_state).toBe("found");
    expect(cited).toEqual(["Lunch is served in the canteen."]);
    const asked = new Set(
      stems(
        tokenize(question)
          .filter((w) => !isStopword(w))
          .join(" "),
      ),
    );
    expect(sharedStems(cited[0] ?? "", asked)).toBe(0);
    expect(answer.quotes.every((q) => standsIn(q, cited[0] ?? ""))).toBe(true);
  });

  it("invented_quote: a related span cited with words that are not in it", async () => {
    const { honest, answer, cited } = await erring(
      "invented_quote",
      [
        [1, 4, "Rinse the cups and stack them by the sink."],
        [5, 8, "The lights go off at ten."],
      ],
      verdict("Were the cups rinsed?"),
    );
    expect(honest.result_state).toBe("uncertain");
    expect(answer.result_state).toBe("found");
    expect(cited).toEqual(["Rinse the cups and stack them by the sink."]);
    expect(answer.quotes).toEqual(["The cups rinsed."]);
    expect(standsIn(answer.quotes[0] ?? "", cited[0] ?? "")).toBe(false);
  });

  it("shifted_time: the span beside the true one cited, its quote kept; a first time moved", async () => {
    const cues: Cue[] = [
      [1, 4, "Welcome to the yard."],
      [5, 8, "The loading dock closes at six."],
      [9, 12, "Thank you all."],
    ];
    const { honest, answer, input } = await erring(
      "shifted_time",
      cues,
      verdict("Does the loading dock close at six?"),
    );
    const spans = spansOf(input);
    expect(honest.evidence_ids.map((id) => spans.get(id)?.start)).toEqual([5]);
    expect(answer.evidence_ids.map((id) => spans.get(id)?.start)).toEqual([9]);
    expect(answer.quotes).toEqual(honest.quotes);
    const first = await erring("shifted_time", cues, {
      answer_type: "measurement",
      description: "When is the loading dock first mentioned?",
    });
    expect(first.honest).toMatchObject({ result_state: "found", value: 5 });
    expect(first.answer.evidence_ids).toEqual(first.honest.evidence_ids);
    expect(Math.abs(Number(first.answer.value) - 5)).toBeGreaterThanOrEqual(3);
    expect(Math.abs(Number(first.answer.value) - 5)).toBeLessThanOrEqual(6);
  });

  it("wrong_number: a measurement found with a number one off or doubled, or in another unit", async () => {
    const claims = new Set<string>();
    for (let seed = 1; seed <= 12; seed++) {
      const input = await promptOver([[1, 4, "The dishwasher ran for ten minutes."]], {
        answer_type: "measurement",
        description: "How long did the dishwasher run?",
      });
      const honest = onlyAnswer(ask(input));
      const reply = ask(input, onlyKind("wrong_number", seed));
      const answer = onlyAnswer(reply);
      expect(reply.errors.map((e) => e.kind)).toEqual(["wrong_number"]);
      expect(honest).toMatchObject({ result_state: "found" });
      expect(answer).toMatchObject({ result_state: "found", evidence_ids: honest.evidence_ids });
      expect([answer.value, answer.unit]).not.toEqual([honest.value, honest.unit]);
      const v = Number(honest.value);
      const how =
        answer.unit !== honest.unit
          ? "unit"
          : answer.value === v + 1 || answer.value === v - 1
            ? "one off"
            : answer.value === v * 2
              ? "doubled"
              : "other";
      claims.add(how);
    }
    expect([...claims].sort()).toEqual(["doubled", "one off", "unit"]);
  });

  it("found_false: a verdict found with the value false", async () => {
    const { honest, answer } = await erring(
      "found_false",
      [[1, 4, "The loading dock closes at six."]],
      verdict("Does the loading dock close at six?"),
    );
    expect(honest).toMatchObject({ result_state: "found", value: true });
    expect(answer).toEqual({ ...honest, value: false });
  });

  it("prohibition_met_by_breach: a prohibition judged kept by the sentence that breaks it", async () => {
    const door = await erring(
      "prohibition_met_by_breach",
      [
        [1, 4, "Someone was smoking near the door."],
        [5, 8, "The door is painted red."],
      ],
      verdict("No smoking near the door"),
      { mode: "observation" },
    );
    expect(door.honest.result_state).not.toBe("found");
    expect(door.answer).toMatchObject({ result_state: "found", value: true });
    expect(door.answer.quotes).toEqual(["Someone was smoking near the door."]);
    const helmets = await erring(
      "prohibition_met_by_breach",
      [
        [1, 4, "Dana worked without a helmet."],
        [5, 8, "Everyone else wore a helmet."],
      ],
      verdict("Was nobody without a helmet?"),
    );
    expect(helmets.honest.result_state).not.toBe("found");
    expect(helmets.answer.quotes).toEqual(["Dana worked without a helmet."]);
    expect(isNegated(helmets.answer.quotes[0] ?? "")).toBe(true);
  });

  it("skipped_items: an enumeration or a timeline found with some of its items left out", async () => {
    const enumeration = await erring(
      "skipped_items",
      [
        [1, 4, "Loosen the nuts with a spanner."],
        [5, 8, "Find the puncture in the tube."],
        [9, 12, "Spread the glue thinly."],
      ],
      { answer_type: "enumeration", description: 'Are "spanner", "puncture" or "glue" mentioned?' },
    );
    const found = (a: typeof enumeration.answer) =>
      a.items.filter((i) => i.result_state === "found");
    expect(found(enumeration.honest)).toHaveLength(3);
    expect(found(enumeration.answer).length).toBeGreaterThanOrEqual(1);
    expect(found(enumeration.answer).length).toBeLessThan(3);
    expect(enumeration.answer.value).toBe(found(enumeration.answer).length);
    for (const id of enumeration.answer.evidence_ids)
      expect(enumeration.honest.evidence_ids).toContain(id);
    const timeline = await erring(
      "skipped_items",
      [
        [1, 4, "A spill was reported at the dock."],
        [9, 12, "A second spill was reported in aisle two."],
      ],
      { answer_type: "timeline", description: "When was a spill reported?" },
    );
    expect(found(timeline.honest)).toHaveLength(2);
    expect(found(timeline.answer)).toHaveLength(1);
  });

  it("unlooked_negative: not_found where the evidence sent supports the answer, or does not span the video", async () => {
    const supported = await erring(
      "unlooked_negative",
      [[1, 4, "The loading dock closes at six."]],
      verdict("Does the loading dock close at six?"),
    );
    expect(supported.honest.result_state).toBe("found");
    expect(supported.answer).toMatchObject({
      result_state: "not_found",
      value: false,
      evidence_ids: [],
      quotes: [],
    });
    const [partial] = await promptsFor(
      [request({ answer_type: "verdict", description: 'Is "crane" said?' }, [talk()])],
      { maxSegments: 1 },
    );
    if (!partial) throw new Error("no call");
    expect(onlyAnswer(ask(partial)).result_state).toBe("not_checked");
    const reply = ask(partial, onlyKind("unlooked_negative"));
    expect(onlyAnswer(reply).result_state).toBe("not_found");
    expect(reply.errors.map((e) => e.honest.result_state)).toEqual(["not_checked"]);
  });
});
