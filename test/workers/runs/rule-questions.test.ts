import { describe, expect, it } from "vitest";
import type { EngineAnswer } from "../../../src/answer-engine/types";
import { type Rule, ruleKindOf } from "../../../src/domain/rulebooks";
import { answerLocally } from "../../../src/ports/answer-engine/local";
import { findingTyping, ruleQuestion } from "../../../src/services/runs/rule-questions";
import { citedRefs, request, video } from "../answer-engine/fixtures";

function rule(fields: Partial<Rule> & Pick<Rule, "title">): Rule {
  return {
    id: "r1",
    description: "",
    severity: null,
    version: 1,
    kind: ruleKindOf(fields),
    ...fields,
  };
}

/** The finding a workflow makes of one rule over one captioned video. */
function judge(
  r: Rule,
  captions: string[],
): { answer: EngineAnswer; type: string; severity: string } {
  const v = video({
    id: "vid_w",
    duration: 4 * captions.length + 1,
    cues: captions.map((text, i) => [4 * i + 0.5, 4 * i + 3.5, text]),
  });
  const question = ruleQuestion(r);
  const answer = answerLocally({ ...request(question.spec, [v]), mode: question.mode });
  return { answer, ...findingTyping(question.kind, answer.result_state, r.severity) };
}

describe("what a workflow asks of a rule", () => {
  it("finds a requirement met by a plain observation, citing it", () => {
    const r = rule({
      title: "Workers wear hard hats",
      description: "Every worker on the site wears a hard hat at all times, including visitors.",
    });
    const { answer, type, severity } = judge(r, ["The workers wore hard hats during the lift."]);
    expect(answer.result_state, JSON.stringify(answer)).toBe("found");
    expect(citedRefs(answer).map((e) => e.text)).toContain(
      "The workers wore hard hats during the lift.",
    );
    expect({ type, severity }).toEqual({ type: "requirement_met", severity: "info" });
  });

  it("does not count a briefing that states the rule as the rule met", () => {
    const r = rule({ title: "Workers must wear hard hats", severity: "high" });
    const { answer, type, severity } = judge(r, ["Workers must wear hard hats."]);
    expect(answer).toMatchObject({
      result_state: "uncertain",
      reason_code: "instruction_not_observation",
    });
    expect({ type, severity }).toEqual({ type: "needs_review", severity: "high" });
  });

  it("reports a hazard seen as observed with the rule's severity, never as met", () => {
    const r = rule({ title: "Pallet dropped from a rack", kind: "hazard", severity: "critical" });
    const { answer, type, severity } = judge(r, ["A pallet dropped from the top rack."]);
    expect(answer.result_state, JSON.stringify(answer)).toBe("found");
    expect({ type, severity }).toEqual({ type: "hazard_observed", severity: "critical" });
  });

  it("never looks for the rule's id", () => {
    const r = rule({ id: "vests", title: "Gloves worn near the lathe" });
    expect(JSON.stringify(ruleQuestion(r).spec)).not.toContain("vests");
    const { answer } = judge(r, ["Everyone wore vests."]);
    expect(citedRefs(answer)).toEqual([]);
    expect(answer.result_state).not.toBe("found");
  });

  it("looks for the title and the description apart, not as one phrase", () => {
    const r = rule({
      title: "Loading dock kept clear",
      description: "No pallets are left in front of the roller door overnight.",
    });
    const spec = ruleQuestion(r).spec;
    expect(spec.description).toBe("Loading dock kept clear");
    expect(spec.fields?.map((f) => f.label)).toEqual([r.description]);
    const { answer } = judge(r, ["The crew kept the loading dock clear all morning."]);
    expect(answer.result_state, JSON.stringify(answer)).toBe("found");
  });

  it("answers a rule about what is said from what was said", () => {
    const r = rule({ title: "The supervisor tells drivers to slow down" });
    const { answer } = judge(r, ["The supervisor told the drivers to slow down in the yard."]);
    expect(answer.result_state, JSON.stringify(answer)).toBe("found");
  });

  it("decides the kind from the title when the rule has none, a hazard on any hazard word", () => {
    expect(ruleKindOf({ title: "Slip hazard by the sink" })).toBe("hazard");
    expect(ruleKindOf({ title: "Unsafe lifting" })).toBe("hazard");
    expect(ruleKindOf({ title: "Near miss with a forklift" })).toBe("hazard");
    expect(ruleKindOf({ title: "Hard hats worn" })).toBe("requirement");
    expect(ruleKindOf({ title: "Unsafe lifting", kind: "requirement" })).toBe("requirement");
  });

  it("types every state of both kinds, info only for a requirement met or a hazard not shown", () => {
    const states = ["found", "not_found", "uncertain", "not_checked"] as const;
    const typed = (kind: "requirement" | "hazard") =>
      states.map((s) => Object.values(findingTyping(kind, s, null)).join("/"));
    expect(typed("requirement")).toEqual([
      "requirement_met/info",
      "requirement_not_shown/medium",
      "needs_review/medium",
      "needs_review/medium",
    ]);
    expect(typed("hazard")).toEqual([
      "hazard_observed/medium",
      "hazard_not_shown/info",
      "needs_review/medium",
      "needs_review/medium",
    ]);
  });
});
