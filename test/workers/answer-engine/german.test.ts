import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GERMAN } from "../../../src/answer-engine/german";
import { probeFrom } from "../../../src/answer-engine/question-probes";
import { stems } from "../../../src/lib/text/search-scoring";
import { answerLocally } from "../../../src/ports/answer-engine/local";
import { type Cue, request, video } from "./fixtures";
import { jsonMode, modelAnswer, world } from "./recording-ai";

const LAGER: Cue[] = [
  [1, 5, "Niemand trägt heute eine Schutzbrille."],
  [6, 10, "Tragen Sie immer Handschuhe im Lager."],
  [11, 15, "Die Tür zur Halle ist nicht verschlossen."],
  [16, 19.5, "Der Fahrer hat drei Paletten gestapelt."],
];

/** german-rules.mp4 as indexed, its track tagged German. */
function lager() {
  const v = video({
    id: "vid_lager",
    title: "Lagerregeln",
    duration: 20,
    bounds: [10],
    cues: LAGER,
  });
  return {
    ...v,
    segments: v.segments.map((s) => ({
      ...s,
      evidence: s.evidence.map((e) => ({ ...e, source: "text-track:0:ger" })),
    })),
  };
}

function german(description: string, type: "verdict" | "measurement" = "verdict") {
  return { ...request({ answer_type: type, description }, [lager()]), locale: "de-DE" };
}

describe("German as the engine reads it", () => {
  it("tells reports, instructions and forms it cannot read apart", () => {
    for (const s of [
      "Tragen Sie immer Handschuhe im Lager.",
      "Bitte schließen Sie die Tür.",
      "Die Arbeiter müssen Helme tragen.",
      "Helm tragen!",
      "Nicht rauchen.",
      "Trag den Helm.",
    ])
      expect(GERMAN.sentenceMode(s), s).toBe("directive");
    expect(
      GERMAN.sentenceMode(
        "Er erinnerte alle daran, den Grill auszuschalten.",
        new Set(stems("Grill")),
      ),
    ).toBe("directive");
    for (const s of [
      "Niemand trägt heute eine Schutzbrille.",
      "Der Fahrer hat drei Paletten gestapelt.",
      "Die Tür zur Halle ist nicht verschlossen.",
      "Heute trägt niemand eine Brille.",
    ])
      expect(GERMAN.sentenceMode(s), s).toBe("report");
    for (const s of ["Maria wischt den Boden.", "Dann stapelt der Fahrer die Paletten."])
      expect(GERMAN.sentenceMode(s), s).toBe("unknown");
  });

  it("never reads a clause opening with a verb it does not know as something that happened", () => {
    const verb = fc
      .stringMatching(/^[a-zäöü]{3,10}$/)
      .map((w) => `${w.charAt(0).toUpperCase()}${w.slice(1)}`);
    const rest = fc.constantFrom(" den Helm.", " Sie die Tür zu.", " die Paletten ins Lager.");
    fc.assert(
      fc.property(verb, rest, (v, r) => {
        expect(GERMAN.sentenceMode(`${v}${r}`)).not.toBe("report");
        expect(GERMAN.sentenceMode(`Dann ${v.toLowerCase()}${r}`)).not.toBe("report");
      }),
    );
  });

  it("reads a German question's negation and mode", () => {
    expect(
      probeFrom("Trägt niemand eine Schutzbrille?", "observation", false, GERMAN),
    ).toMatchObject({ text: "trägt schutzbrille", negated: true });
    expect(probeFrom("Wird der Fahrer erwähnt?", "mention", false, GERMAN)?.text).toBe("fahrer");
  });

  it("answers a German run over German captions in production, checked as German", async () => {
    const { engine } = world(() =>
      jsonMode(modelAnswer({ evidence_ids: [], quotes: [], result_state: "not_found" })),
    );
    const mentioned = await engine.answer(german("Wird der Fahrer erwähnt?"));
    expect(mentioned).toMatchObject({ result_state: "found", answer_payload: { value: true } });
    const glasses = await engine.answer(german("Trägt jemand eine Schutzbrille?"));
    expect(glasses).toMatchObject({
      result_state: "uncertain",
      reason_code: "conflicting_evidence",
    });
    const door = await engine.answer(german("Ist die Tür zur Halle verschlossen?"));
    expect(door).toMatchObject({ result_state: "uncertain", reason_code: "conflicting_evidence" });
    const gloves = await engine.answer(german("Tragen die Arbeiter Handschuhe im Lager?"));
    expect(gloves.result_state).toBe("uncertain");
    // Quantities are read in English only: a German count is not judged.
    const count = await engine.answer(
      german("Wie viele Paletten hat der Fahrer gestapelt?", "measurement"),
    );
    expect(count).toMatchObject({
      result_state: "not_checked",
      reason_code: "language_unsupported",
    });
    expect(count.answer_payload.value).toBeUndefined();
    // The local engine reads English only: the same run is not judged there.
    expect(answerLocally(german("Wird der Fahrer erwähnt?"))).toMatchObject({
      result_state: "not_checked",
      reason_code: "language_unsupported",
    });
  });

  it("does not take a German instruction as something that happened, whatever the model says", async () => {
    const { engine } = world((inputs) => {
      const prompt = JSON.parse(
        (inputs as { messages: { role: string; content: string }[] }).messages[1]?.content ?? "{}",
      ) as { segments: { evidence: { evidence_id: string; text: string }[] }[] };
      const bitte = prompt.segments
        .flatMap((s) => s.evidence)
        .find((e) => e.text.startsWith("Tragen Sie"));
      return jsonMode(
        modelAnswer({ evidence_ids: [bitte?.evidence_id], quotes: [bitte?.text], value: true }),
      );
    });
    const a = await engine.answer({
      ...german("Tragen die Arbeiter im Lager Handschuhe?"),
      spec: {
        answer_key: "gloves",
        answer_type: "verdict",
        description: "Handschuhe im Lager getragen",
        evidence: { accepted_types: ["transcript"] },
      },
      mode: "observation",
    });
    expect(a.result_state).toBe("uncertain");
    expect(a.reason_code).toBe("instruction_not_observation");
  });
});
